package sim

import "time"

// Msg is one request or reply on the wire: an envelope of a few scalar
// fields most requests need, and the design's own typed Body for what does
// not fit them. A Msg is copied by value; its Body is shared between the
// sender, the queue, every checkpoint of the run and the receiver, so it
// is never changed after the Msg is sent (a design sends a pointer to a
// value it builds for the message). The engine never looks into a Body.
type Msg struct {
	Op       Op
	Key      string        // the lock key or znode path
	Value    string        // the holder's random value / owner
	TTL      time.Duration // PX, session timeout, lease TTL
	Token    int64         // fencing token, sequence, revision
	Seq      int64         // request id, to match replies
	N        int64         // a count or a second number (reply of a script)
	Deadline time.Duration // an absolute expiry on the sender's clock
	Body     any           // the design's own immutable body, or nil
}

// Flag is a yes or no carried in one of the envelope's number fields: 1
// for yes, 0 for no (a design's codec reads it back as == 1).
func Flag(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Timer is what a process asked to be woken for; the engine hands it back.
type Timer struct {
	Kind TimerKind
	Seq  int64
	Key  string
}

// The ops of the storage node every mode shares: a holder reads the
// protected value at the start of its work and writes it at the end; the
// storage answers both.
// What each carries is its typed form below (storageRequest,
// storageReply); only this file reads or writes the envelope's fields for
// them.
// Their names are in sim/vocab.go.
const (
	NoOp      Op = iota // no message
	OpRead              // READ
	OpWrite             // WRITE
	OpReadOK            // VALUE: the read's answer or refusal
	OpWriteOK           // STORED: the write's answer or refusal
)

// storageRequest is a holder's READ or WRITE to the storage.
type storageRequest struct {
	Write  bool  // a WRITE (false: a READ)
	Seq    int64 // the holder's request number, which the answer repeats
	Token  int64 // the holder's fencing token, recorded even when not checked
	Fenced bool  // the storage checks Token against the highest it has seen
}

// op is the request's op on the wire.
func (r storageRequest) op() Op {
	if r.Write {
		return OpWrite
	}
	return OpRead
}

// msg is the request on the wire: Token the token, N 1 when fenced.
func (r storageRequest) msg() Msg {
	return Msg{Op: r.op(), Seq: r.Seq, Token: r.Token, N: Flag(r.Fenced)}
}

// storageRequestOf reads a storage request; ok is false for any other op.
func storageRequestOf(m *Msg) (r storageRequest, ok bool) {
	if m.Op != OpRead && m.Op != OpWrite {
		return storageRequest{}, false
	}
	return storageRequest{Write: m.Op == OpWrite, Seq: m.Seq, Token: m.Token, Fenced: m.N == 1}, true
}

// storageReply is the storage's answer to a storageRequest.
type storageReply struct {
	Write   bool  // the answer to a WRITE (false: to a READ)
	Seq     int64 // the request's number
	OK      bool  // served (false: refused for a token below Highest)
	Highest int64 // the highest token the storage has seen
}

// msg is the answer on the wire: Token the highest token, N 1 when served.
func (r storageReply) msg() Msg {
	m := Msg{Op: OpReadOK, Seq: r.Seq, Token: r.Highest, N: Flag(r.OK)}
	if r.Write {
		m.Op = OpWriteOK
	}
	return m
}

// storageReplyOf reads the storage's answer.
func storageReplyOf(m *Msg) storageReply {
	return storageReply{Write: m.Op == OpWriteOK, Seq: m.Seq, OK: m.N == 1, Highest: m.Token}
}

// Timer kinds of the client loop every mode shares, the storage's
// retransmission and a scripted client; modes declare their own for the
// rest.
// Their names are in sim/vocab.go.
const (
	timerWork   TimerKind = iota + 1 // work
	timerThink                       // think
	TimerRetry                       // retry: the next try for the lock, after RetryDelay
	timerWrite                       // sendwrite: the write leaves after the last check
	storageRT                        // storage: the client's retransmission timer
	timerScript                      // script: a scripted client's step; Seq is the step index
)
