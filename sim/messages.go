package sim

import "time"

// Op names the kind of a message: SET, MsgApp, a ZooKeeper create. A
// design declares its ops as typed constants in one place (its
// messages.go) and compares only those; the engine never reads an Op but
// to print it in the trace and on a message in flight.
type Op string

// TimerKind names what a timer is for. As with Op, a design declares its
// kinds as typed constants in one place; the engine only hands them back.
type TimerKind string

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

// Label is the short text drawn on a message in flight.
func (m Msg) Label() string { return string(m.Op) }

// Timer is what a process asked to be woken for; the engine hands it back.
type Timer struct {
	Kind TimerKind
	Seq  int64
	Key  string
}

// The ops of the storage node every mode shares: a holder reads the
// protected value at the start of its work and writes it at the end; the
// storage answers both.
const (
	OpRead    Op = "READ"
	OpWrite   Op = "WRITE"
	OpReadOK  Op = "VALUE"  // the read's answer (N=1) or refusal (N=0)
	OpWriteOK Op = "STORED" // the write's answer (N=1) or refusal (N=0)
)

// Timer kinds of the client loop every mode shares, the storage's
// retransmission and a scripted client; modes declare their own for the
// rest.
const (
	timerWork   TimerKind = "work"
	timerThink  TimerKind = "think"
	TimerRetry  TimerKind = "retry"     // the next try for the lock, after RetryDelay
	timerWrite  TimerKind = "sendwrite" // the write leaves after the last check
	storageRT   TimerKind = "storage"   // the client's retransmission timer
	timerScript TimerKind = "script"    // a scripted client's step; Seq is the step index
)
