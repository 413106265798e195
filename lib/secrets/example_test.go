package secrets_test

import (
	"fmt"
	"strings"

	"github.com/hookctl/hookctl/lib/secrets"
)

// A PostToolUse hook scrubbing command output before the model sees it.
func ExampleRedact() {
	output := "$ env | grep -i -e token -e database\n" +
		"GITHUB_TOKEN=ghp_" + "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d\n" +
		"DATABASE_URL=postgres://app:Zx9kL2mQ7v@db.internal:5432/app\n" +
		"TOKEN_TTL=3600\n"
	fmt.Print(secrets.Redact(output))
	// Output:
	// $ env | grep -i -e token -e database
	// GITHUB_TOKEN=[REDACTED:github-token]
	// DATABASE_URL=postgres://app:[REDACTED:url-credentials]@db.internal:5432/app
	// TOKEN_TTL=3600
}

// A UserPromptSubmit hook explaining why it blocks a prompt.
func ExampleScan() {
	prompt := "why does this fail? curl -H 'Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l' " +
		"https://api.internal/v1 with AWS_ACCESS_KEY_ID=AKIA" + "EDT2SYWB3WKH5DNS"
	for _, f := range secrets.Scan(prompt) {
		fmt.Printf("%s at bytes %d-%d\n", f.Kind, f.Start, f.End)
	}
	// Output:
	// authorization-header at bytes 50-74
	// aws-access-key-id at bytes 123-143
}

func ExampleContains() {
	fmt.Println(secrets.Contains("commit 0ac2f86702824c1c099724caf4941d4072014b3c"))
	fmt.Println(secrets.Contains("export OPENAI_API_KEY=$OPENAI_API_KEY"))
	fmt.Println(secrets.Contains("export OPENAI_API_KEY=sk-proj-" + "9nhFyJfm5di4PzJ59FHz5r1pY4OjE2jBMptUsGr7CmY_uCu3"))
	// Output:
	// false
	// false
	// true
}

// Keep the last four characters so a human can tell which key leaked.
func ExampleRedactWith() {
	line := `{"level":"debug","msg":"calling api","api_key":"sk-ant-api03-` +
		"HUvTCQCyEZDz-TddJ8HyS5SUkCnD8zRA9a9SkpXz9w3QlY7Zkuvqdt7s8Stqcbnr3yBdGBLEPH1qhT61qtc4xatws8phPAA" + `"}`
	fmt.Println(secrets.RedactWith(line, func(f secrets.Finding) string {
		return strings.Repeat("*", 8) + f.Match[len(f.Match)-4:]
	}))
	// Output:
	// {"level":"debug","msg":"calling api","api_key":"********hPAA"}
}

func ExampleKinds() {
	fmt.Println(strings.Join(secrets.Kinds(), "\n"))
	// Output:
	// private-key
	// aws-access-key-id
	// aws-secret-access-key
	// github-token
	// gitlab-token
	// slack-token
	// slack-webhook
	// stripe-key
	// anthropic-api-key
	// openai-api-key
	// google-api-key
	// npm-token
	// jwt
	// url-credentials
	// authorization-header
	// secret-assignment
	// high-entropy
}
