# A file comment.
// Another style.
/* A block
   comment. */

settings {
  max_concurrency = 8    # eight
  default_timeout = "5s" // five seconds
  stop_block_cap  = 3 /* three */
}

hook "a" {
  # before the event
  event = "Stop"
  # before the decision
  decision = "block" # trailing
}
