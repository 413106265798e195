package protocol

// Registry lists the protocols hookctl speaks: the hosts it answers
// (Protocol) and the conventions command hooks may speak besides
// (Convention). It is immutable once made and safe for concurrent use.
type Registry struct {
	hosts []Protocol
	all   []Convention
}

// NewRegistry lists the protocols and conventions in the order given: the
// order of Names and of ties between detection hints of equal rank. A
// Convention that is a Protocol is a host.
func NewRegistry(cs ...Convention) *Registry {
	r := &Registry{all: append([]Convention(nil), cs...)}
	for _, c := range cs {
		if p, ok := c.(Protocol); ok {
			r.hosts = append(r.hosts, p)
		}
	}
	return r
}

// Lookup returns the host protocol named name.
func (r *Registry) Lookup(name string) (Protocol, bool) {
	for _, p := range r.hosts {
		if p.Name() == name {
			return p, true
		}
	}
	return nil, false
}

// Names lists the hosts' names.
func (r *Registry) Names() []string {
	names := make([]string, len(r.hosts))
	for i, p := range r.hosts {
		names[i] = p.Name()
	}
	return names
}

// All lists the host protocols.
func (r *Registry) All() []Protocol { return append([]Protocol(nil), r.hosts...) }

// Convention returns the command convention named name: a host's (its
// own scripts' protocol) or one that is only a convention.
func (r *Registry) Convention(name string) (Convention, bool) {
	for _, c := range r.all {
		if c.Name() == name {
			return c, true
		}
	}
	return nil, false
}

// Conventions lists the names of every convention, the hosts' included.
func (r *Registry) Conventions() []string {
	names := make([]string, len(r.all))
	for i, c := range r.all {
		names[i] = c.Name()
	}
	return names
}

// Detect chooses the host of a payload that came without --host, and says
// why: the protocol whose hint ranks lowest (the first listed on a tie).
// It is nil only for a registry where no protocol takes the fallback
// (RankFallback). A nil getenv reads an empty environment.
func (r *Registry) Detect(raw map[string]any, getenv func(string) string) (Protocol, string) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var best Protocol
	var hint Hint
	for _, p := range r.hosts {
		h, ok := p.Detect(raw, getenv)
		if ok && (best == nil || h.Rank < hint.Rank) {
			best, hint = p, h
		}
	}
	return best, hint.Why
}

// Default is the protocol of a payload that looks like no host's (the one
// whose hint is RankFallback): the host answered when even the payload
// could not be read.
func (r *Registry) Default() Protocol {
	var best Protocol
	rank := 0
	for _, p := range r.hosts {
		if h, ok := p.Detect(nil, func(string) string { return "" }); ok && (best == nil || h.Rank < rank) {
			best, rank = p, h.Rank
		}
	}
	return best
}
