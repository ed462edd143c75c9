package sim

import (
	"fmt"
	"time"
)

// ScriptStep is one request of a scripted client: when At has passed on the
// client's monotonic clock since the run began, it sends Msg to the server
// named To.
type ScriptStep struct {
	At  time.Duration
	To  string
	Msg Msg
	// KeepSeq sends Msg.Seq as it is, even 0, for a message whose Seq is a
	// protocol field rather than a request id (a ZooKeeper CONNECT's last
	// zxid seen); its reply is then found by Op, not by Reply.
	KeepSeq bool
	// Make, when set, builds the message at send time from the replies
	// received so far, for a request that needs an answer's value (a lease
	// id, a revision); Msg is then ignored.
	Make func(replies []ScriptReply) Msg
}

// ScriptReply is one message a scripted client received, with the true time
// it arrived and the node that sent it.
type ScriptReply struct {
	At   time.Duration
	From string
	Msg  Msg
}

// ScriptClient is a client Process that plays a fixed list of requests at
// fixed virtual times and records every reply. It exists so a conformance
// test can drive a simulated server with exactly the operations and
// schedule it sends to a real one, then compare the answers.
//
// A step whose Msg.Seq is 0 is sent with Seq = its index + 1, so a reply
// (which carries the request's Seq) names the step it answers.
type ScriptClient struct {
	Steps   []ScriptStep
	Replies []ScriptReply
	sent    int // steps sent so far; steps are played in order
}

// NewScriptClient builds a scripted client; steps must be in time order.
func NewScriptClient(steps ...ScriptStep) *ScriptClient {
	return &ScriptClient{Steps: append([]ScriptStep(nil), steps...)}
}

// Reply returns the first reply to step i (0-based), if one arrived: the
// first message whose Seq is the step's.
func (c *ScriptClient) Reply(i int) (ScriptReply, bool) {
	seq := c.seqOf(i)
	for _, r := range c.Replies {
		if r.Msg.Seq == seq {
			return r, true
		}
	}
	return ScriptReply{}, false
}

func (c *ScriptClient) seqOf(i int) int64 {
	if s := c.Steps[i].Msg.Seq; s != 0 || c.Steps[i].KeepSeq {
		return s
	}
	return int64(i) + 1
}

// Start implements Process: it arms one timer per step still to play.
func (c *ScriptClient) Start(ctx Ctx) { c.arm(ctx) }

func (c *ScriptClient) arm(ctx Ctx) {
	for i := c.sent; i < len(c.Steps); i++ {
		ctx.After(max(0, c.Steps[i].At-ctx.Mono()), Timer{Kind: timerScript, Seq: int64(i)})
	}
}

// Fire implements Process: it sends the step the timer was armed for.
func (c *ScriptClient) Fire(ctx Ctx, t Timer) {
	if t.Kind != timerScript || int(t.Seq) != c.sent {
		return
	}
	st := c.Steps[c.sent]
	to := ctx.Lookup(st.To)
	if to == None {
		panic(fmt.Sprintf("sim: scripted step %d names unknown node %q", c.sent, st.To))
	}
	m := st.Msg
	if st.Make != nil {
		m = st.Make(c.Replies)
	}
	m.Seq = c.seqOf(c.sent)
	c.sent++
	ctx.Trace(TraceScript, m.Op.String(), "step "+fmt.Sprint(c.sent))
	ctx.Send(to, m)
}

// Receive implements Process: every message is recorded as it arrives.
func (c *ScriptClient) Receive(ctx Ctx, from NodeID, m *Msg) {
	c.Replies = append(c.Replies, ScriptReply{At: ctx.Now(), From: ctx.Sim().Nodes[from].Name, Msg: *m})
}

// Crash implements Process: a crashed script stops; its timers die with
// the incarnation.
func (c *ScriptClient) Crash(ctx Ctx) {}

// Restart implements Process: the steps not yet sent are armed again.
func (c *ScriptClient) Restart(ctx Ctx, persist bool) { c.arm(ctx) }

// Clone implements Process.
func (c *ScriptClient) Clone() Process {
	cp := *c
	cp.Steps = append([]ScriptStep(nil), c.Steps...)
	cp.Replies = append([]ScriptReply(nil), c.Replies...)
	return &cp
}

// NewScripted builds a run of a copy of sc in which client i plays
// scripts[i] instead of the mode's own client (a nil entry keeps the mode's
// client). The copy has at least len(scripts) clients, all starting at
// time 0 unless sc staggers them, and the scripts record their replies in
// place, so the caller reads them after RunUntil or Run.
func NewScripted(sc *Scenario, scripts ...*ScriptClient) (*Sim, error) {
	sc = sc.Clone()
	if sc.Clients < len(scripts) {
		sc.Clients = len(scripts)
	}
	s, err := New(sc)
	if err != nil {
		return nil, err
	}
	for i, p := range scripts {
		if p != nil {
			s.Nodes[s.Lookup(ClientName(i))].setProc(p)
		}
	}
	return s, nil
}
