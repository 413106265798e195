package secrets_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/hookctl/hookctl/lib/secrets"
)

// Fake credentials, well-formed for their detectors but random. They are
// split with + so that secret scanners run over this repository do not flag
// the test file itself.
const (
	awsKeyID     = "AKIA" + "EDT2SYWB3WKH5DNS"
	awsTempKeyID = "ASIA" + "EDT2SYWB3WKH5DNT"
	awsSecret    = "qFYY+kv5ZJr3J1TWDtkwtD" + "Db/xHKas1VOqg6YYZY"
	ghToken      = "ghp_" + "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"
	ghAppToken   = "ghs_" + "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8e"
	ghPAT        = "github_pat_" + "KLzdocJ2isAjIhKtJ0RlgL_KOmxgJTeKdNnFRIBXuDL7DxtpYlSXpfKtHF4vUCsMehGAkWvj7FAc9QeWJK"
	glToken      = "glpat-" + "Y40uvSwMFLZDe1f8rESQ"
	slackToken   = "xoxb-" + "176031372159-0109281590139-yjOq9wMxEhh2FDEEtfjgVvVq"
	slackHook    = "https://hooks.slack.com/services/" + "TEZYEX1RD/BRGDSJPR16U/mXxY9B4bZWOz648JJnUfd7UA"
	stripeKey    = "sk_live_" + "E1SkHbn88HxjSI6bWHtP3fS2"
	antKey       = "sk-ant-api03-" + "HUvTCQCyEZDz-TddJ8HyS5SUkCnD8zRA9a9SkpXz9w3QlY7Zkuvqdt7s8Stqcbnr3yBdGBLEPH1qhT61qtc4xatws8phPAA"
	openaiKey    = "sk-proj-" + "9nhFyJfm5di4PzJ59FHz5r1pY4OjE2jBMptUsGr7CmY_uCu3"
	openaiLegacy = "sk-" + "GzvAmwufUxbvJDCTbyvHT3BlbkFJNsG9eh6Yo4gfqrc5XlrW"
	googleKey    = "AIza" + "q2HZt-PlJhx2jIclHkCiHp6bR1IqfEouHgx"
	npmToken     = "npm_" + "m7tOtHWnsCGRlrwZbqcabUGJmGEp7CgQ0PBQ"
	jwtToken     = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" +
		".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ" +
		".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	b64Secret = "/YNBDRzrZSgqbjG3uhkWKFLf6xuI5aHUQPFeNBTx"
	hex40     = "0ac2f86702824c1c099724caf4941d4072014b3c"
	hex64     = "e107f80e222f828767efc2f91624a894" + "0f1f836f99eee3692f09e2e8c662248b"
	base32    = "IRHXO77ZBKA74ZTJ2WYUHVAUVZHMASQX"
	uuid      = "550e8400-e29b-41d4-a716-446655440000"

	rsaKey = "-----BEGIN RSA " + "PRIVATE KEY-----\n" +
		"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n" +
		"VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n" +
		"-----END RSA " + "PRIVATE KEY-----"
	sshKeyTruncated = "-----BEGIN OPENSSH " + "PRIVATE KEY-----\n" +
		"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n" +
		"QyNTUxOQAAACDo2dcuKMdm5zbGYzDmRaVr8TE3mNPVm4LS5ZQsV9i8xQAAAJgAAAAAAAAA\n"
	jsonEscapedKey = `-----BEGIN ` + `PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\n-----END ` + `PRIVATE KEY-----\n`
)

type want struct{ kind, match string }

var positives = []struct {
	name string
	text string
	want []want
}{
	{
		name: "aws key id in an export",
		text: "export AWS_ACCESS_KEY_ID=" + awsKeyID + "\n",
		want: []want{{"aws-access-key-id", awsKeyID}},
	},
	{
		name: "aws credentials file",
		text: "[default]\naws_access_key_id = " + awsKeyID + "\naws_secret_access_key = " + awsSecret + "\nregion = eu-west-1\n",
		want: []want{{"aws-access-key-id", awsKeyID}, {"aws-secret-access-key", awsSecret}},
	},
	{
		name: "aws sts output",
		text: `{"Credentials": {"AccessKeyId": "` + awsTempKeyID + `", "SecretAccessKey": "` + awsSecret +
			`", "SessionToken": "IQoJb3JpZ2luX2VjEHcaCWV1LXdlc3QtMSJHMEUCIQDx7r2Jk1rQ+3vV9n/bL0kqZs8=", "Expiration": "2025-06-01T12:00:00Z"}}`,
		want: []want{
			{"aws-access-key-id", awsTempKeyID},
			{"aws-secret-access-key", awsSecret},
			{"secret-assignment", "IQoJb3JpZ2luX2VjEHcaCWV1LXdlc3QtMSJHMEUCIQDx7r2Jk1rQ+3vV9n/bL0kqZs8="},
		},
	},
	{
		name: "github token in a git remote url",
		text: "$ git remote set-url origin https://x-access-token:" + ghAppToken + "@github.com/hookctl/hookctl.git",
		want: []want{{"github-token", ghAppToken}},
	},
	{
		name: "github token in an Authorization header",
		text: `curl -H "Authorization: token ` + ghToken + `" https://api.github.com/user`,
		want: []want{{"github-token", ghToken}},
	},
	{
		name: "fine-grained github pat in .env",
		text: "GITHUB_TOKEN=" + ghPAT + "\nLOG_LEVEL=debug\n",
		want: []want{{"github-token", ghPAT}},
	},
	{
		name: "gitlab token in a curl header",
		text: `curl --header "PRIVATE-TOKEN: ` + glToken + `" "https://gitlab.com/api/v4/projects"`,
		want: []want{{"gitlab-token", glToken}},
	},
	{
		name: "slack bot token in python",
		text: "client = WebClient(token=\"" + slackToken + "\")\n",
		want: []want{{"slack-token", slackToken}},
	},
	{
		name: "slack webhook",
		text: `curl -X POST -H 'Content-type: application/json' --data '{"text":"deploy done"}' ` + slackHook,
		want: []want{{"slack-webhook", slackHook}},
	},
	{
		name: "stripe live key",
		text: "STRIPE_SECRET_KEY=" + stripeKey,
		want: []want{{"stripe-key", stripeKey}},
	},
	{
		name: "anthropic key",
		text: "ANTHROPIC_API_KEY=" + antKey + " claude -p 'hello'",
		want: []want{{"anthropic-api-key", antKey}},
	},
	{
		name: "openai project key",
		text: `OPENAI_API_KEY="` + openaiKey + `"`,
		want: []want{{"openai-api-key", openaiKey}},
	},
	{
		name: "openai legacy key in code",
		text: "openai.api_key = \"" + openaiLegacy + "\"\n",
		want: []want{{"openai-api-key", openaiLegacy}},
	},
	{
		name: "google api key in a query string",
		text: "GET https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key=" + googleKey + " 200 OK",
		want: []want{{"google-api-key", googleKey}},
	},
	{
		name: "npm token in .npmrc",
		text: "//registry.npmjs.org/:_authToken=" + npmToken + "\n",
		want: []want{{"npm-token", npmToken}},
	},
	{
		name: "jwt bearer",
		text: "Authorization: Bearer " + jwtToken,
		want: []want{{"jwt", jwtToken}},
	},
	{
		name: "jwt in a cookie header",
		text: "Cookie: theme=dark; session=" + jwtToken + "; path=/",
		want: []want{{"jwt", jwtToken}},
	},
	{
		name: "pem rsa key",
		text: "Here is the deploy key:\n" + rsaKey + "\nUse it carefully.",
		want: []want{{"private-key", rsaKey}},
	},
	{
		name: "truncated openssh key",
		text: "$ cat ~/.ssh/id_ed25519 | head -3\n" + sshKeyTruncated,
		want: []want{{"private-key", strings.TrimRight(sshKeyTruncated, "\n")}},
	},
	{
		name: "json-escaped pem key",
		text: `{"type":"service_account","private_key":"` + jsonEscapedKey + `","client_email":"ci@proj.iam.gserviceaccount.com"}`,
		want: []want{{"private-key", strings.TrimSuffix(jsonEscapedKey, `\n`)}},
	},
	{
		name: "quoted password in code",
		text: `password = "hunter22"`,
		want: []want{{"secret-assignment", "hunter22"}},
	},
	{
		name: "password comparison with a literal",
		text: `if password == "hunter22x" {`,
		want: []want{{"secret-assignment", "hunter22x"}},
	},
	{
		name: "letters-only password in env form",
		text: "PGPASSWORD=supersecret psql -h db -U app",
		want: []want{{"secret-assignment", "supersecret"}},
	},
	{
		name: "weak but real password",
		text: "docker run -e MYSQL_ROOT_PASSWORD=qwerty123 mysql:8",
		want: []want{{"secret-assignment", "qwerty123"}},
	},
	{
		name: "password in env",
		text: "DB_HOST=db.internal\nDB_PASSWORD=hunter22x\n",
		want: []want{{"secret-assignment", "hunter22x"}},
	},
	{
		name: "password in json",
		text: `{"username": "deploy", "password": "s3cr3t-P@ss!"}`,
		want: []want{{"secret-assignment", "s3cr3t-P@ss!"}},
	},
	{
		name: "password in escaped json",
		text: `"{\"username\":\"deploy\",\"password\":\"Tr0ub4dor3x\"}"`,
		want: []want{{"secret-assignment", "Tr0ub4dor3x"}},
	},
	{
		name: "password flag",
		text: "mysql --user=root --password=Tr0ub4dor3x -h 127.0.0.1",
		want: []want{{"secret-assignment", "Tr0ub4dor3x"}},
	},
	{
		name: "client secret in yaml",
		text: "oauth:\n  client_id: 1234-abc.apps.googleusercontent.com\n  client_secret: GOCSPX-4kQm9ZtR2vW7xY1pL8nB\n",
		want: []want{{"secret-assignment", "GOCSPX-4kQm9ZtR2vW7xY1pL8nB"}},
	},
	{
		name: "django secret key",
		text: "SECRET_KEY = 'k9#2xq!v7m@p4z$w8r^t6y&u1i(o3'\nDEBUG = False\n",
		want: []want{{"secret-assignment", "k9#2xq!v7m@p4z$w8r^t6y&u1i(o3"}},
	},
	{
		name: "access token in a query string",
		text: "GET /api/v1/me?access_token=EAAGm0PX4ZCpsBAKZC9Z&fields=id,name HTTP/1.1",
		want: []want{{"secret-assignment", "EAAGm0PX4ZCpsBAKZC9Z"}},
	},
	{
		name: "postgres url",
		text: "DATABASE_URL=postgres://app:Zx9kL2mQ7v@db.internal:5432/app?sslmode=require",
		want: []want{{"url-credentials", "Zx9kL2mQ7v"}},
	},
	{
		name: "redis url without user",
		text: "connecting to redis://:r3disPass77@cache:6379/0 ...",
		want: []want{{"url-credentials", "r3disPass77"}},
	},
	{
		name: "mongodb srv url",
		text: `mongosh "mongodb+srv://admin:Pa55w0rdX@cluster0.abcde.mongodb.net/test"`,
		want: []want{{"url-credentials", "Pa55w0rdX"}},
	},
	{
		name: "basic auth header",
		text: "curl -H 'Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l' https://example.com/api",
		want: []want{{"authorization-header", "YWxhZGRpbjpvcGVuc2VzYW1l"}},
	},
	{
		name: "bearer opaque token",
		text: "> Authorization: Bearer 2YotnFZFEjr1zCsicMWpAA\n> Accept: */*",
		want: []want{{"authorization-header", "2YotnFZFEjr1zCsicMWpAA"}},
	},
	{
		name: "high entropy app key",
		text: "DD_API_URL=https://api.datadoghq.eu\nDD_APP_KEY=" + hex40 + "\n",
		want: []want{{"high-entropy", hex40}},
	},
	{
		name: "high entropy docker auth",
		text: `{"auths": {"ghcr.io": {"auth": "` + b64Secret + `"}}}`,
		want: []want{{"high-entropy", b64Secret}},
	},
	{
		name: "high entropy base32 license key",
		text: "license_key: " + base32,
		want: []want{{"high-entropy", base32}},
	},
	{
		name: "high entropy hmac key",
		text: `hmacKey := "` + hex64 + `"`,
		want: []want{{"high-entropy", hex64}},
	},
	{
		name: "several kinds in one tool output",
		text: "$ env | sort\nANTHROPIC_API_KEY=" + antKey + "\nGITHUB_TOKEN=" + ghToken + "\nHOME=/home/dev\nPGPASSWORD=Zx9kL2mQ7v\n",
		want: []want{
			{"anthropic-api-key", antKey},
			{"github-token", ghToken},
			{"secret-assignment", "Zx9kL2mQ7v"},
		},
	},
}

var negatives = []struct {
	name string
	text string
}{
	{"git log", "commit " + hex40 + "\nAuthor: Dev <dev@example.com>\nDate:   Mon Jun 2 10:00:00 2025 +0200\n\n    fix token refresh race\n"},
	{"git rev-parse", "$ git rev-parse HEAD\n" + hex40 + "\n"},
	{"merge commit", "Merge: 0ac2f86 4c1c099\nindex 0ac2f86..4c1c099 100644"},
	{"sha256sum", hex64 + "  go1.26.8.linux-amd64.tar.gz\n"},
	{"image digest", "ghcr.io/hookctl/hookctl@sha256:" + hex64},
	{"hash with label", `{"sha": "` + hex40 + `", "commit": {"tree": {"sha": "` + hex40 + `"}}}`},
	{"uuid", "session_id: " + uuid + "\n"},
	{"uuid after token label", `{"token": "` + uuid + `", "requestId": "` + uuid + `"}`},
	{"uuid after key label", "idempotency_key=" + uuid + " key=" + uuid},
	{"uuid elsewhere", "Authorization: Bearer " + uuid + "\nhttps://svc:" + uuid + "@host/x"},
	{"placeholder changeme", "DB_PASSWORD=changeme"},
	{"placeholder angle", "ANTHROPIC_API_KEY=<your-api-key>"},
	{"placeholder template", "token: ${GITHUB_TOKEN}\npassword: {{ .Values.db.password }}"},
	{"placeholder variable", "export OPENAI_API_KEY=$OPENAI_API_KEY"},
	{"placeholder xxx", "password: xxx\nsecret: \"********\"\napi_key=xxxxxxxxxxxxxxxx"},
	{"placeholder your", `{"api_key": "YOUR_API_KEY_HERE", "token": "your-token-here"}`},
	{"env reference python", `token = os.environ["GITHUB_TOKEN"]`},
	{"env reference node", "const apiKey = process.env.API_KEY;"},
	{"code reference", "password = config.database.password\nsecret = self.secret"},
	{"env var name", "token: GITHUB_TOKEN"},
	{"function call", "token = get_token()\npassword := os.Getenv(\"PGPASSWORD\")"},
	{"type annotations", "def login(user: str, password: str) -> None:\n    token: Optional[str] = None\n"},
	{"typescript type", "interface Creds { password: string; token?: string }"},
	{"token counts", `{"usage": {"input_tokens": 12345, "output_tokens": 678}, "max_tokens": 4096}`},
	{"pagination token", `{"nextPageToken": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA4Z3", "NextToken": "` + b64Secret + `"}`},
	{"ssh public key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOjZ1y4ox2bnNsZjMOZFpWvxMTeY09WbgtLllCxX2LzF dev@laptop"},
	{"public key json", `{"publicKey": "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEj2cB8vdyHk4nE0sx"}`},
	{"integrity", `"integrity": "sha512-u7Gq/0dBS8Q1jXwVvK6yq8c3j6qs2xQ9tX7mR4Hk3Lp0dN2bW1vFZeYcTgH5sA=="`},
	{"plain urls", "https://github.com/hookctl/hookctl.git ssh://git@github.com/hookctl/hookctl git@github.com:hookctl/hookctl.git https://dev@host/x"},
	{"url placeholder password", "postgres://user:password@localhost:5432/db https://${USER}:${PASS}@host/ http://[::1]:8080/x"},
	{"prose", "Set the token: you can find it under Settings. The password: must be long."},
	{"bearer variable", `curl -H "Authorization: Bearer $TOKEN" -H 'Authorization: Bearer <token>'`},
	{"aws-like word", "AKIAEXAMPLEXXXXXXXXXXXXXXXX and MYAKIA" + "EDT2SYWB3WKH5DNS"},
	{"sk in a word", "task-" + "GzvAmwufUxbvJDCTbyvHT3BlbkFJNsG9eh6Yo4gfqrc5XlrW"},
	{"go.sum", "github.com/expr-lang/expr v1.17.8 h1:W1loDTT+0PQf5YteHSTpju2qfUfNoBt4yw9+wOEU9VM=\n"},
	{"slack placeholder", "SLACK_BOT_TOKEN=xoxb-your-bot-token-here"},
	{"jwt-like dotted words", "eyJhbGciOi.not.a-jwt and eyJzdWIiOiIxMjM0NTY3ODkwIn0.eyJzdWIiOiIxMjM0NTY3ODkwIn0.x"},
	{"wordy key", `translation_key: "settings_page_title_for_dashboard_v2"`},
	{"path key", "s3_key: uploads/2024/01/report_final-version2.pdf"},
	{"aws documentation keys", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
	{"comparison with a variable", "if first_token == child_first:\n    return"},
	{"quoted words", `{"input_token": "Marker", "IdToken": "minutes", "password": "opensesame"}`},
	{"css colour", "Token: '#cccccc',"},
	{"public key under a key label", `{"keyid": "SHA256:jl3bwswu80PjjokCgh0o2w5c2U4LhQAE57gj9cz1kzA", "key": "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE1Olb3zMAFFxXKHiIkQO5cJ3Yhl5i6UPp+IhuteBJbuHcA5UogKo0EWtlWwW6KSaKoTNEYL7JlCQiVnkhBktUgg=="}`},
	{"code that names secrets", "Password: password,\nif token == other {\nPrivateKey: testRSAPrivateKey,"},
	{"snake_case variables", "is_first_token=line_offset\nlast_token = maybe_comma"},
	{"arn", `{"SecretId": "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db-3QNDmM", "encryptionKey": "arn:aws:kms:eu-west-1:123456789012:alias/aws/s3"}`},
	{"empty", ""},
}

func TestScanPositives(t *testing.T) {
	for _, tc := range positives {
		t.Run(tc.name, func(t *testing.T) {
			got := secrets.Scan(tc.text)
			var gotW []want
			for _, f := range got {
				gotW = append(gotW, want{f.Kind, f.Match})
				if tc.text[f.Start:f.End] != f.Match {
					t.Errorf("offsets %d:%d give %q, Match is %q", f.Start, f.End, tc.text[f.Start:f.End], f.Match)
				}
			}
			if !slices.Equal(gotW, tc.want) {
				t.Errorf("Scan(%q)\n got %q\nwant %q", tc.text, gotW, tc.want)
			}
			if !secrets.Contains(tc.text) {
				t.Errorf("Contains = false")
			}
			red := secrets.Redact(tc.text)
			for _, w := range tc.want {
				if strings.Contains(red, w.match) {
					t.Errorf("Redact left %q in %q", w.match, red)
				}
				if !strings.Contains(red, "[REDACTED:"+w.kind+"]") {
					t.Errorf("Redact output %q lacks the %s marker", red, w.kind)
				}
			}
			if again := secrets.Scan(red); len(again) != 0 {
				t.Errorf("redacted text still has findings: %+v", again)
			}
		})
	}
}

func TestScanNegatives(t *testing.T) {
	for _, tc := range negatives {
		t.Run(tc.name, func(t *testing.T) {
			if got := secrets.Scan(tc.text); len(got) != 0 {
				t.Errorf("Scan(%q) = %+v, want none", tc.text, got)
			}
			if secrets.Contains(tc.text) {
				t.Errorf("Contains(%q) = true", tc.text)
			}
			if red := secrets.Redact(tc.text); red != tc.text {
				t.Errorf("Redact changed clean text to %q", red)
			}
		})
	}
}

// Every detector id is exercised by at least one positive case.
func TestKindsCovered(t *testing.T) {
	kinds := secrets.Kinds()
	if len(kinds) == 0 {
		t.Fatal("no kinds")
	}
	seen := map[string]bool{}
	for _, k := range kinds {
		if seen[k] {
			t.Errorf("duplicate kind %q", k)
		}
		seen[k] = true
	}
	covered := map[string]bool{}
	for _, tc := range positives {
		for _, w := range tc.want {
			if !seen[w.kind] {
				t.Errorf("case %q expects unknown kind %q", tc.name, w.kind)
			}
			covered[w.kind] = true
		}
	}
	for _, k := range kinds {
		if !covered[k] {
			t.Errorf("kind %q has no positive test case", k)
		}
	}
	// The returned slice is a copy.
	kinds[0] = "mutated"
	if secrets.Kinds()[0] == "mutated" {
		t.Error("Kinds returned the package's own slice")
	}
}

func TestOverlapResolution(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []want
	}{
		{
			// url-credentials and github-token cover the same bytes: the
			// specific detector wins.
			name: "specific beats generic on equal span",
			text: "https://oauth2:" + ghToken + "@github.com/x.git",
			want: []want{{"github-token", ghToken}},
		},
		{
			// The "key=" high-entropy match and the secret-assignment match
			// share the value; the assignment is listed first.
			name: "assignment beats entropy",
			text: "api_key=" + b64Secret,
			want: []want{{"secret-assignment", b64Secret}},
		},
		{
			// The assignment value runs past the token, so it is longer and
			// wins: more of the secret gets redacted.
			name: "longest wins",
			text: "password=" + ghToken + "-Extra99",
			want: []want{{"secret-assignment", ghToken + "-Extra99"}},
		},
		{
			// The key block swallows everything inside it.
			name: "pem swallows inner matches",
			text: "-----BEGIN " + "PRIVATE KEY-----\ntoken=" + ghToken + "\n-----END " + "PRIVATE KEY-----",
			want: []want{{"private-key", "-----BEGIN " + "PRIVATE KEY-----\ntoken=" + ghToken + "\n-----END " + "PRIVATE KEY-----"}},
		},
		{
			name: "adjacent tokens",
			text: ghToken + "," + ghAppToken + " " + npmToken,
			want: []want{{"github-token", ghToken}, {"github-token", ghAppToken}, {"npm-token", npmToken}},
		},
		{
			name: "two pem blocks",
			text: rsaKey + "\n\n" + rsaKey,
			want: []want{{"private-key", rsaKey}, {"private-key", rsaKey}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []want
			for _, f := range secrets.Scan(tc.text) {
				got = append(got, want{f.Kind, f.Match})
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestRedactWith(t *testing.T) {
	text := "GITHUB_TOKEN=" + ghToken + " url=postgres://app:Zx9kL2mQ7v@db:5432/app"
	got := secrets.RedactWith(text, func(f secrets.Finding) string {
		return strings.Repeat("*", 4) + f.Match[len(f.Match)-2:]
	})
	want := "GITHUB_TOKEN=****8d url=postgres://app:****7v@db:5432/app"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := secrets.RedactWith(text, func(f secrets.Finding) string { return f.Match }); got != text {
		t.Errorf("identity replacement changed the text: %q", got)
	}
}

func TestRedactKeepsContext(t *testing.T) {
	text := "DATABASE_URL=postgres://app:Zx9kL2mQ7v@db.internal:5432/app\nDB_PASSWORD=hunter22x\n"
	want := "DATABASE_URL=postgres://app:[REDACTED:url-credentials]@db.internal:5432/app\nDB_PASSWORD=[REDACTED:secret-assignment]\n"
	if got := secrets.Redact(text); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// Offsets are bytes, also around multi-byte and invalid UTF-8 text.
func TestNonASCII(t *testing.T) {
	text := "Schlüssel → token=" + ghToken + " ✓ \xff\xfe password=Grüße-2025!"
	got := secrets.Scan(text)
	if len(got) != 2 {
		t.Fatalf("got %+v", got)
	}
	if got[0].Match != ghToken || got[1].Match != "Grüße-2025!" {
		t.Errorf("got %+v", got)
	}
	for _, f := range got {
		if text[f.Start:f.End] != f.Match {
			t.Errorf("bad offsets %+v", f)
		}
	}
}

func TestScanIsConcurrencySafe(t *testing.T) {
	text := positives[len(positives)-1].text
	want := secrets.Scan(text)
	done := make(chan []secrets.Finding)
	for range 8 {
		go func() { done <- secrets.Scan(text) }()
	}
	for range 8 {
		if got := <-done; !slices.Equal(got, want) {
			t.Errorf("concurrent Scan differs: %+v", got)
		}
	}
}
