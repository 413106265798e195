package lsp

import "testing"

// TestURIPaths: file: URIs as editors send them, on Windows and on Unix,
// and back.
func TestURIPaths(t *testing.T) {
	for _, c := range []struct {
		uri  string
		win  bool
		want string // "" when refused
	}{
		{"file:///home/me/repo/hooks.hcl", false, "/home/me/repo/hooks.hcl"},
		{"file:///home/me/repo/x/../hooks.hcl", false, "/home/me/repo/hooks.hcl"},
		{"file://localhost/home/me/hooks.hcl", false, "/home/me/hooks.hcl"},
		{"file:///home/me/a%20b/hooks.hcl", false, "/home/me/a b/hooks.hcl"},
		{"file://server/share/hooks.hcl", false, ""},
		{"file:hooks.hcl", false, ""},
		{"untitled:Untitled-1", false, ""},
		{"file:///C:/Users/me/repo/hooks.hcl", true, `C:\Users\me\repo\hooks.hcl`},
		{"file:///c%3A/Users/me/repo/hooks.hcl", true, `c:\Users\me\repo\hooks.hcl`},
		{"file:///C:/Users/me/repo/x/../hooks.hcl", true, `C:\Users\me\repo\hooks.hcl`},
		{"file:///C:/../hooks.hcl", true, `C:\hooks.hcl`},
		{"file:///C:/", true, `C:\`},
		{"file:///D:/a%20b/hooks.hcl", true, `D:\a b\hooks.hcl`},
		{"file://server/share/dir/hooks.hcl", true, `\\server\share\dir\hooks.hcl`},
		{"file://server/share/../hooks.hcl", true, `\\server\share\hooks.hcl`},
		{"file://server/", true, ""},
		{"file:///home/me/hooks.hcl", true, ""},
		{"file:///C:hooks.hcl", true, ""},
		{"file:///1:/hooks.hcl", true, ""},
	} {
		got, err := uriPathFor(c.uri, c.win)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%s (windows %v): %q, want refused", c.uri, c.win, got)
		case c.want != "" && (err != nil || got != c.want):
			t.Errorf("%s (windows %v): %q, %v; want %q", c.uri, c.win, got, err, c.want)
		}
		if c.want == "" {
			continue
		}
		back, err := uriPathFor(pathURIFor(got, c.win), c.win)
		if err != nil || back != got {
			t.Errorf("%s (windows %v): %q -> %s -> %q, %v", c.uri, c.win, got, pathURIFor(got, c.win), back, err)
		}
	}
	for _, c := range []struct {
		path string
		win  bool
		want string
	}{
		{"/home/me/hooks.hcl", false, "file:///home/me/hooks.hcl"},
		{`C:\Users\me\hooks.hcl`, true, "file:///C:/Users/me/hooks.hcl"},
		{`\\server\share\hooks.hcl`, true, "file://server/share/hooks.hcl"},
	} {
		if got := pathURIFor(c.path, c.win); got != c.want {
			t.Errorf("%s (windows %v): %s, want %s", c.path, c.win, got, c.want)
		}
	}
}
