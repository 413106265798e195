settings {
  stop_block_cap = 1
}

hook "a" {
  event    = "Stop"
  decision = "block"
  reason   = "from a"
}
