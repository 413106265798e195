// Package metrics exposes what a hookctl engine decides and how its hooks
// run as Prometheus metrics, on a registry the caller owns (no global
// default registry): hookctl serve serves them at GET /metrics, and a Go
// program embedding the engine registers them with its own registry.
//
// A Metrics is fed from three places:
//
//   - the engine, through engine.WithObserver(m): every hook that ran, in
//     every phase, background hooks included (durations, errors, timeouts,
//     panics);
//   - the caller, through ObserveFire after each Engine.Fire: the fire's
//     merged decision and the status of every hook in its trace (the
//     engine tells observers only of fires of events with hooks; fires of
//     the others count too);
//   - functions read at scrape time: WatchEngine (background queue,
//     fires in progress), WatchScripts (the script runtime pool),
//     WatchServer (an HTTP server's load and refusals), and the
//     configuration's hash and reloads (SetConfig, ObserveReload).
//
// All names are in the hookctl namespace, counters end in _total and
// durations are histograms in seconds. Label values come from the
// configuration and the event catalog (event names, hook ids, handler
// kinds, decisions) or from closed sets (statuses, failure kinds, reload
// results), never from payloads, so the number of series is bounded by the
// configurations served.
//
// A Metrics is safe for concurrent use.
package metrics
