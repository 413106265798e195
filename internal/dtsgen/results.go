package dtsgen

// resultTypes gives result fields a type where the merge rule alone says
// too little.
var resultTypes = map[string]string{
	"watch_paths":          "string[]",
	"initial_user_message": "string",
	"session_title":        "string",
	"prompt":               "string",
	"display_content":      "string",
	"additional_context":   "string",
	"classifier_context":   "string",
	"block_reason":         "string",
	"params":               "Record<string, unknown>",
	"worktree_path":        "string",
	"content":              "unknown",
	"model_override":       "string",
	"provider_override":    "string",
	"system_prompt":        "string",
	"reply":                "string",
	"text":                 "string",
	"cancel_reason":        "string",
	"reason":               "string",
	"env":                  "Record<string, string>",
	"allowed_names":        "string[]",
	"tools_allow":          "string[]",
	"bootstrap_files":      "unknown[]",
	"findings":             "unknown[]",
	"updated_permissions":  "unknown[]",
	"metadata":             "Record<string, unknown>",
	"category":             "string",
}
