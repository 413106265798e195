locals {
protected = ["main",
"master"]
  env = {
  a = 1
      bb = "two"
  }
}

hook "retry" {
event = "PostToolUse"
http {
url = "http://127.0.0.1:8080/hook"
  headers = {
  "X-Token" = "t"
  }
retry {
attempts = 3
  backoff  =  "100ms"
}
}
}
