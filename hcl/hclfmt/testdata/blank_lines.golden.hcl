hook "a" {


  event = "Stop"

  decision = "block"
}



hook "b" {
  event    = "Stop"
  decision = "block"
}
