package transcript

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"

	"github.com/hookctl/hookctl/internal/safefile"
)

// LastAssistantText returns the text of the last assistant message of the
// main conversation in the transcript at path that has any text, its text
// blocks joined with "\n"; "" if there is none. It is what
// ReadFile(path, Options{}).LastAssistantText returns, but it reads the file
// backwards from the end and stops at that message, so a Stop hook pays for
// the last few lines, not for the whole 8 MiB window. Like ReadFile it
// reads only a regular file and returns when ctx ends.
func LastAssistantText(ctx context.Context, path string) (string, error) {
	return safefile.Bounded(ctx, func(ctx context.Context) (string, error) {
		f, err := safefile.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		info, err := f.Stat()
		if err != nil {
			return "", err
		}
		return lastAssistantText(ctx, f, info.Size(), DefaultMaxBytes)
	}, nil)
}

// lastAssistantText finds, within the last limit bytes of the size bytes of
// r, the text Read would report as LastAssistantText. It reads chunks of
// growing size from the end until the answer cannot depend on the lines
// before the chunk.
func lastAssistantText(ctx context.Context, r io.ReaderAt, size, limit int64) (string, error) {
	window := min(size, limit)
	for n := min(window, 64<<10); ; n = min(2*n, window) {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		// Read one byte more, when there is one, to know whether the
		// chunk starts a line.
		off := size - n
		extra := int64(0)
		if off > 0 {
			extra = 1
		}
		buf := make([]byte, n+extra)
		m, err := r.ReadAt(buf, off-extra)
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		buf = buf[:m]
		if extra == 1 && len(buf) > 0 {
			if buf[0] == '\n' {
				buf = buf[1:]
			} else {
				buf = dropPartialLine(buf[1:])
			}
		}
		if off == 0 {
			buf = bytes.TrimPrefix(buf, []byte("\xef\xbb\xbf"))
		}
		text, done, err := lastTextIn(ctx, buf)
		if err != nil {
			return "", err
		}
		if done || n == window {
			return text, nil
		}
	}
}

// lastTextIn walks the lines of data from the last to the first. It joins
// the texts of the trailing run of text-bearing main-conversation assistant
// lines that share a message id, and reports done once a line before the
// run shows where the run starts.
func lastTextIn(ctx context.Context, data []byte) (text string, done bool, err error) {
	var (
		parts []string
		id    string
	)
	for n := 0; len(data) > 0; n++ {
		if n%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return "", false, err
			}
		}
		var line []byte
		if i := bytes.LastIndexByte(bytes.TrimRight(data, "\n"), '\n'); i >= 0 {
			line, data = data[i+1:], data[:i+1]
		} else {
			line, data = data, nil
		}
		l, kind := decodeLine(line)
		t := mainText(&l, kind)
		if t == "" {
			continue
		}
		if parts == nil {
			parts, id = []string{t}, l.Message.ID
			if id == "" {
				return t, true, nil
			}
			continue
		}
		if l.Message.ID != id {
			return joinReversed(parts), true, nil
		}
		parts = append(parts, t)
	}
	return joinReversed(parts), false, nil
}

func joinReversed(parts []string) string {
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "\n")
}
