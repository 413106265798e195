hook "b" {
  event              = "Stop"
  priority           = 1
  additional_context = "from b"
}
