hook "a" {
  event = "Stop"
  decision = "block"
}