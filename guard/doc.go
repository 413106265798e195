// Package guard runs a hookctl engine's tool hooks around any
// tool-calling loop, with no agent framework: Before a tool runs (deny,
// ask, rewrite its arguments) and After it ran (context for the model, a
// block's feedback). Adapters for frameworks are a few lines over it:
// guard/eino plugs it into cloudwego/eino's ToolsNode; an ADK
// BeforeToolCallback is
//
//	func(ctx tool.Context, t tool.Tool, args map[string]any) (map[string]any, error) {
//		newArgs, err := g.Before(ctx, t.Name(), args)
//		var d *guard.Denied
//		if errors.As(err, &d) {
//			return map[string]any{"error": d.Reason}, nil // skips the tool; the model reads why
//		}
//		if err != nil {
//			return nil, err
//		}
//		for k := range args { // ADK rewrites by changing args
//			if _, keep := newArgs[k]; !keep {
//				delete(args, k)
//			}
//		}
//		maps.Copy(args, newArgs)
//		return nil, nil
//	}
package guard
