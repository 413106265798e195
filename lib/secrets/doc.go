// Package secrets finds and redacts credentials in text. Hooks that guard
// what crosses a boundary call it: a UserPromptSubmit hook that refuses a
// prompt with a pasted API key, a PostToolUse hook that scrubs command output
// before it reaches the model or a log, a notification hook that redacts an
// outbound message, and hookctl's own logging of payloads.
//
// Scan reports every credential it recognises as a Finding: a stable Kind id
// (see Kinds) and the byte offsets of the secret itself. Labelled forms
// report only the value, so "password=hunter22" is reported as "hunter22"
// and Redact turns it into "password=[REDACTED:secret-assignment]"; a URL
// with inline credentials keeps its scheme, user and host and loses only the
// password. Findings never overlap: where two detectors match overlapping
// text, the longer match wins, and on equal length the more specific
// detector (a GitHub token over a generic "token=" assignment).
//
// The detectors are, by Kind:
//
//   - private-key: PEM private key blocks (RSA, EC, DSA, OpenSSH,
//     encrypted PKCS#8, PGP), BEGIN line through END line; a block cut off
//     before its END line is redacted through its base64 body;
//   - aws-access-key-id: AKIA, ASIA, ABIA and ACCA key ids;
//   - aws-secret-access-key: a 40-character secret next to an
//     aws_secret_access_key, AWS_SECRET_ACCESS_KEY or SecretAccessKey label;
//   - github-token: ghp_, gho_, ghu_, ghs_, ghr_ and github_pat_ tokens;
//   - gitlab-token: glpat-, glptt-, gldt-, glrt- and glsoat- tokens;
//   - slack-token: xoxb-, xoxa-, xoxp-, xoxr- and xoxs- tokens;
//   - slack-webhook: hooks.slack.com/services, /workflows and /triggers
//     URLs;
//   - stripe-key: sk_live_, rk_live_, sk_test_ and rk_test_ keys;
//   - anthropic-api-key: sk-ant-... keys;
//   - openai-api-key: sk-proj-, sk-svcacct-, sk-admin- and legacy sk-...
//     keys;
//   - google-api-key: AIza... keys;
//   - npm-token: npm_... tokens;
//   - jwt: three base64url parts whose header decodes to a JSON object with
//     an "alg" member;
//   - url-credentials: the password of scheme://user:password@host;
//   - authorization-header: the credentials of an Authorization header
//     with a Bearer, Basic or Token scheme;
//   - secret-assignment: the value of a password=, secret=, token=,
//     api_key= (and similar) assignment, quoted or not, in shell, env,
//     JSON, YAML, HTTP header and source-code forms;
//   - high-entropy: a value of 32 or more base64 or hex characters after a
//     key-like label (key, secret, token, auth, credentials ...) whose
//     Shannon entropy is high enough to be random.
//
// False positives are kept low on purpose, since a guard that cries wolf is
// turned off: placeholders ("changeme", "xxx", "<token>", "${VAR}", "$VAR",
// "your-api-key" ...), type names, code references such as
// "os.environ.get" and upper-case variable names are not secrets; a hash
// (a 40-hex git commit id, a sha256) is never reported without a secret-like
// label; a UUID is never reported, whatever its label; pagination and
// idempotency tokens (NextToken, page_token ...) and public keys are not
// secrets; in source code, "Password: password", "token = get_token()" and
// "if token == other" are not secrets, while "password = \"hunter22\"" is.
// Bare letters-only values count only in env, flag and query form
// (PGPASSWORD=supersecret), since after "token: " they are mostly prose.
//
// Detectors whose secrets start with a fixed prefix (ghp_, AKIA, sk-ant-
// ...) are regexps, run only when one pass over the text has seen the
// prefix; labelled forms are parsed by hand from every label-separator site
// of the text, which keeps Scan near 60 MB/s on dense tool output.
//
// Everything here is safe for concurrent use: the detectors are compiled
// once into a package-level table that is never written after init.
package secrets
