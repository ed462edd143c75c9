package redis

import (
	"fmt"
	"strings"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// Redis Sentinel as processes, read from redis/redis src/sentinel.c at tag
// 7.0.15 (the line Debian's redis-sentinel 7.0 runs). Each Sentinel is a
// node of its own, sentinel-1…sentinel-N, that monitors the master and its
// replica and talks to its peers:
//
//   - sentinelTimer runs server.hz times a second, hz drawn again each run
//     from 10 to 19 (CONFIG_DEFAULT_HZ + rand()%CONFIG_DEFAULT_HZ), so the
//     Sentinels drift apart and rarely ask for votes at the same instant.
//   - sentinelSendPeriodicCommands: PING every second (min of
//     down-after-milliseconds and SENTINEL_PING_PERIOD, 1000 ms) while the
//     last PONG is older than that; INFO every 10 s (sentinel_info_period),
//     every second to a replica while its master is ODOWN or failing over.
//   - sentinelCheckSubjectivelyDown: SDOWN when the oldest unanswered PING
//     (act_ping_time) is older than down-after-milliseconds, or, on a
//     link its peer closed (a crashed server: its kernel resets the
//     connection), the last valid reply (last_avail_time) is; also a
//     master that reports itself a replica for down-after + 2 INFO periods.
//   - sentinelCheckObjectivelyDown: ODOWN when this Sentinel and enough
//     peers that answered is-master-down-by-addr "down" reach the quorum.
//   - sentinelStartFailoverIfNeeded / sentinelStartFailover: on ODOWN, with
//     no failover within 2 × failover-timeout, a new epoch
//     (++current_epoch) and a vote request to every peer.
//   - sentinelVoteLeader: a Sentinel votes for the first asker of an epoch
//     it has not voted in (and then holds off its own failover for up to
//     SENTINEL_MAX_DESYNC, 1 s); sentinelGetLeader: the winner needs a
//     majority of the Sentinels and at least the quorum; a candidate not
//     elected within min(SENTINEL_ELECTION_TIMEOUT 10 s, failover-timeout)
//     aborts.
//   - the leader selects the replica, sends it REPLICAOF NO ONE, waits for
//     its INFO to say master (+promoted-slave), and publishes
//     +switch-master: the clients follow it (Redisson's sentinel manager
//     and go-redis's FailoverClient subscribe to it), its peers learn the
//     new configuration from its hello messages (a higher config epoch).
//   - the old master is then a replica in Sentinel's table: when it
//     answers again and reports itself master for more than 4 ×
//     SENTINEL_PUBLISH_PERIOD (8 s) with no SDOWN in those 8 s,
//     the INFO that sees it sends REPLICAOF new-master (+convert-to-slave):
//     it drops its dataset and resyncs.
//
// What is left out is in sim/conformance/DIFFERENCES.md (Sentinel): TILT,
// the hello messages' discovery (the Sentinels know each other from the
// start, and hello goes to each peer directly every 2 s), replica
// priority and replication offsets (there is one replica), scripts and
// the replicas' reconfiguration beyond the one.

// Sentinel's figures (sentinel.c, 7.0.15).
const (
	// SentinelPingPeriod is SENTINEL_PING_PERIOD.
	SentinelPingPeriod = 1000 * time.Millisecond
	// SentinelInfoPeriod is sentinel_info_period.
	SentinelInfoPeriod = 10 * time.Second
	// SentinelAskPeriod is sentinel_ask_period: is-master-down-by-addr
	// at most this often per peer.
	SentinelAskPeriod = 1000 * time.Millisecond
	// SentinelPublishPeriod is sentinel_publish_period: hello messages.
	SentinelPublishPeriod = 2 * time.Second
	// SentinelMaxDesync is SENTINEL_MAX_DESYNC: the random delay of a
	// failover's start time.
	SentinelMaxDesync = 1000 * time.Millisecond
	// SentinelElectionTimeout is sentinel_election_timeout.
	SentinelElectionTimeout = 10 * time.Second
	// SentinelFailoverTimeout is sentinel_default_failover_timeout
	// (failover-timeout, 3 minutes).
	SentinelFailoverTimeout = 3 * time.Minute
)

// RoleSentinel is a Sentinel node's role.
var RoleSentinel = sim.NewRole("sentinel")

// The states of a failover (SENTINEL_FAILOVER_STATE_*).
type failoverState uint8

const (
	foNone failoverState = iota
	foWaitStart
	foSelectSlave
	foSendSlaveOfNoOne
	foWaitPromotion
	foReconfSlaves
	foUpdateConfig
)

// watched is a server as one Sentinel sees it (a sentinelRedisInstance
// with its link): the master, or a replica of it.
type watched struct {
	node        sim.NodeID
	lastPing    time.Duration // last PING sent
	pinging     bool          // a PING is unanswered (act_ping_time != 0)
	actPing     time.Duration // act_ping_time: when the oldest unanswered PING left
	pongEver    bool
	lastPong    time.Duration
	lastAvail   time.Duration // last_avail_time
	sdown       bool
	sdownSince  time.Duration // s_down_since_time; 0 never
	infoEver    bool
	infoRefresh time.Duration // when the last INFO was answered
	infoSent    time.Duration
	infoAsked   bool
	role        sim.Role // role_reported
	roleSince   time.Duration
	promoted    bool // SRI_PROMOTED
}

// peer is another Sentinel as this one sees it.
type peer struct {
	node        sim.NodeID
	masterDown  bool // SRI_MASTER_DOWN: its last reply said down
	replied     bool
	lastReply   time.Duration // last_master_down_reply_time
	lastAsk     time.Duration
	asked       bool
	leader      sim.NodeID
	leaderEpoch int64
	lastHello   time.Duration
}

// Sentinel is one redis-sentinel process monitoring the master.
type Sentinel struct {
	servers []watched // [0] the master as configured, then its replicas
	peers   []peer
	quorum  int

	epoch       int64 // current_epoch
	configEpoch int64 // the master's config_epoch
	leader      sim.NodeID
	leaderEpoch int64

	odown     bool
	fo        failoverState
	foEpoch   int64
	foStartAt time.Duration // failover_start_time
	foStarted bool
	foChange  time.Duration
	promoted  int // index in servers; -1 none
}

// newSentinel is a Sentinel; the nodes it watches and its peers are
// resolved by name at Start.
func newSentinel() *Sentinel { return &Sentinel{leader: sim.None, promoted: -1} }

// Clone implements Process.
func (t *Sentinel) Clone() sim.Process {
	c := *t
	c.servers = append([]watched(nil), t.servers...)
	c.peers = append([]peer(nil), t.peers...)
	return &c
}

// SentinelName is the node name of Sentinel i (0-based).
func SentinelName(i int) string { return fmt.Sprintf("sentinel-%d", i+1) }

// Start implements Process: `sentinel monitor` of redis-1 with redis-2 as
// its replica, the peers known, the timer started.
func (t *Sentinel) Start(ctx sim.Ctx) {
	s := ctx.Sim()
	now := ctx.Mono()
	if t.servers == nil {
		t.servers = []watched{{node: s.Lookup("redis-1"), role: RoleMaster}, {node: s.Lookup("redis-2"), role: RoleReplica}}
		n := Sentinels.Of(ctx.Scenario())
		for i := 0; i < n; i++ {
			if id := s.Lookup(SentinelName(i)); id != ctx.ID() {
				t.peers = append(t.peers, peer{node: id, leader: sim.None})
			}
		}
		t.quorum = n/2 + 1
	}
	for i := range t.servers {
		t.servers[i].link(now)
	}
	t.arm(ctx)
}

// link is a new link's figures: createInstanceLink sets act_ping_time and
// last_avail_time to now.
func (w *watched) link(now time.Duration) {
	w.pinging, w.actPing, w.lastAvail, w.roleSince = true, now, now, now
}

// arm schedules the next sentinelTimer: 1/hz, hz from 10 to 19.
func (t *Sentinel) arm(ctx sim.Ctx) {
	hz := 10 + ctx.Rand().IntN(10)
	ctx.After(time.Second/time.Duration(hz), sim.Timer{Kind: timerSentinelTick})
}

// Crash implements Process: a Sentinel keeps its config on disk
// (sentinelFlushConfig), its links and timers go.
func (t *Sentinel) Crash(ctx sim.Ctx) {}

// Restart implements Process.
func (t *Sentinel) Restart(ctx sim.Ctx, persist bool) {
	for i := range t.peers {
		t.peers[i].replied, t.peers[i].asked, t.peers[i].masterDown = false, false, false
	}
	t.Start(ctx)
}

// Background implements sim.Background: the monitoring — PING, INFO,
// hello, is-master-down-by-addr — changes nothing a client believes; the
// REPLICAOF orders and +switch-master do.
func (t *Sentinel) Background(m *sim.Msg) bool {
	switch m.Op {
	case OpPing, OpInfo, OpHello, OpIsMasterDown, OpMasterDown:
		return true
	}
	return false
}

// event is sentinelEvent: one of the events a Sentinel logs and
// publishes, named as sentinel.c names it, about node.
func (t *Sentinel) event(ctx sim.Ctx, name string, node sim.NodeID, key string) {
	if !ctx.Tracing() {
		return
	}
	who := ctx.Sim().Nodes[node].Name
	words := sim.Say(key, "node", who, "epoch", fmt.Sprint(t.epoch))
	english := strings.NewReplacer("{{.node}}", who, "{{.epoch}}", fmt.Sprint(t.epoch)).Replace(eventEnglish[key])
	ctx.TraceSaid(traceSentinelEvent, name, english, words)
}

// eventEnglish is each event's note in English (its translation's
// words, with the same blanks).
var eventEnglish = map[string]string{
	"note.redis.sentinel.configUpdate":   "+config-update-from {{.node}}: a newer configuration",
	"note.redis.sentinel.convertToSlave": "+convert-to-slave {{.node}}: it says master; REPLICAOF the new master",
	"note.redis.sentinel.elected":        "+elected-leader for epoch {{.epoch}}: this Sentinel fails {{.node}} over",
	"note.redis.sentinel.noGoodSlave":    "-failover-abort-no-good-slave: no replica to promote",
	"note.redis.sentinel.notElected":     "-failover-abort-not-elected: no majority for this Sentinel in epoch {{.epoch}}",
	"note.redis.sentinel.odown":          "+odown {{.node}}: a majority of the Sentinels hold it down",
	"note.redis.sentinel.odownCleared":   "-odown {{.node}}",
	"note.redis.sentinel.promotedSlave":  "+promoted-slave {{.node}}: its INFO says master",
	"note.redis.sentinel.sdown":          "+sdown {{.node}}: no valid answer to PING for down-after-milliseconds",
	"note.redis.sentinel.sdownCleared":   "-sdown {{.node}}: it answers again",
	"note.redis.sentinel.slaveofNoOne":   "REPLICAOF NO ONE sent to {{.node}}",
	"note.redis.sentinel.tryFailover":    "+try-failover {{.node}}: new epoch {{.epoch}}, asking the others for their vote",
}

// disconnected says the link to a server is down: a crashed server's
// kernel closed its sockets and refuses the reconnections (a paused or
// cut-off server's link stays up and just goes silent).
func disconnected(ctx sim.Ctx, id sim.NodeID) bool { return ctx.Sim().Nodes[id].Crashed }

// Fire implements Process: sentinelTimer.
func (t *Sentinel) Fire(ctx sim.Ctx, tm sim.Timer) {
	if tm.Kind != timerSentinelTick {
		return
	}
	t.handle(ctx)
	t.arm(ctx)
}

// handle is sentinelHandleDictOfRedisInstances for the one master:
// sentinelHandleRedisInstance on the master, then on its replicas, then
// the peers (hello), then the switch to the promoted replica.
func (t *Sentinel) handle(ctx sim.Ctx) {
	now := ctx.Mono()
	for i := range t.servers {
		t.periodic(ctx, i, now)
		t.checkSDown(ctx, i, now)
		if i == 0 {
			t.checkODown(ctx, now)
			if t.startFailoverIfNeeded(ctx, now) {
				t.ask(ctx, now, true)
			}
			t.failoverStateMachine(ctx, now)
			t.ask(ctx, now, false)
		}
	}
	for i := range t.peers {
		p := &t.peers[i]
		if now-p.lastHello > SentinelPublishPeriod {
			p.lastHello = now
			ctx.Send(p.node, sim.Msg{Op: OpHello, Body: &hello{Master: t.servers[0].node, ConfigEpoch: t.configEpoch}})
		}
	}
	if t.fo == foUpdateConfig {
		t.switchTo(ctx, t.servers[t.promoted].node, now)
	}
}

// periodic is sentinelSendPeriodicCommands for server i.
func (t *Sentinel) periodic(ctx sim.Ctx, i int, now time.Duration) {
	w := &t.servers[i]
	if disconnected(ctx, w.node) {
		return
	}
	infoPeriod := SentinelInfoPeriod
	if i > 0 && (t.odown || t.fo != foNone) {
		infoPeriod = time.Second
	}
	// INFO is sent again each period while unanswered (the real one sends
	// it on every timer run until 100 commands are pending).
	if (!w.infoEver || now-w.infoRefresh > infoPeriod) && (!w.infoAsked || now-w.infoSent > infoPeriod) {
		w.infoAsked, w.infoSent = true, now
		ctx.Send(w.node, sim.Msg{Op: OpInfo})
	}
	pingPeriod := min(DownAfter.Of(ctx.Scenario()).D(), SentinelPingPeriod)
	if (!w.pongEver || now-w.lastPong > pingPeriod) && now-w.lastPing > pingPeriod/2 {
		w.lastPing = now
		if !w.pinging {
			w.pinging, w.actPing = true, now
		}
		ctx.Send(w.node, sim.Msg{Op: OpPing})
	}
}

// checkSDown is sentinelCheckSubjectivelyDown for server i.
func (t *Sentinel) checkSDown(ctx sim.Ctx, i int, now time.Duration) {
	w := &t.servers[i]
	downAfter := DownAfter.Of(ctx.Scenario()).D()
	var elapsed time.Duration
	if w.pinging {
		elapsed = now - w.actPing
	} else if disconnected(ctx, w.node) {
		elapsed = now - w.lastAvail
	}
	down := elapsed > downAfter ||
		(i == 0 && w.role == RoleReplica && now-w.roleSince > downAfter+2*SentinelInfoPeriod)
	switch {
	case down && !w.sdown:
		w.sdown, w.sdownSince = true, now
		t.event(ctx, "+sdown", w.node, "note.redis.sentinel.sdown")
	case !down && w.sdown:
		w.sdown = false
		t.event(ctx, "-sdown", w.node, "note.redis.sentinel.sdownCleared")
	}
}

// checkODown is sentinelCheckObjectivelyDown.
func (t *Sentinel) checkODown(ctx sim.Ctx, now time.Duration) {
	odown := false
	if t.servers[0].sdown {
		votes := 1
		for _, p := range t.peers {
			if p.masterDown {
				votes++
			}
		}
		odown = votes >= t.quorum
	}
	switch {
	case odown && !t.odown:
		t.odown = true
		t.event(ctx, "+odown", t.servers[0].node, "note.redis.sentinel.odown")
	case !odown && t.odown:
		t.odown = false
		t.event(ctx, "-odown", t.servers[0].node, "note.redis.sentinel.odownCleared")
	}
}

// startFailoverIfNeeded is sentinelStartFailoverIfNeeded and
// sentinelStartFailover.
func (t *Sentinel) startFailoverIfNeeded(ctx sim.Ctx, now time.Duration) bool {
	if !t.odown || t.fo != foNone {
		return false
	}
	if t.foStarted && now-t.foStartAt < 2*SentinelFailoverTimeout {
		return false
	}
	t.fo = foWaitStart
	t.epoch++
	t.foEpoch = t.epoch
	t.foStarted, t.foStartAt = true, now+time.Duration(ctx.Rand().Int64N(int64(SentinelMaxDesync/time.Millisecond)))*time.Millisecond
	t.foChange = now
	t.event(ctx, "+try-failover", t.servers[0].node, "note.redis.sentinel.tryFailover")
	return true
}

// ask is sentinelAskMasterStateToOtherSentinels.
func (t *Sentinel) ask(ctx sim.Ctx, now time.Duration, forced bool) {
	for i := range t.peers {
		p := &t.peers[i]
		if p.replied && now-p.lastReply > 5*SentinelAskPeriod {
			p.masterDown, p.leader = false, sim.None
		}
		if !t.servers[0].sdown {
			continue
		}
		if !forced && p.replied && now-p.lastReply < SentinelAskPeriod {
			continue
		}
		// One question a period to a peer that does not answer (the real
		// one asks on every timer run until the link's 100 commands).
		if !forced && p.asked && now-p.lastAsk < SentinelAskPeriod {
			continue
		}
		p.asked, p.lastAsk = true, now
		q := &isMasterDown{Master: t.servers[0].node, Epoch: t.epoch, RunID: sim.None}
		if t.fo != foNone {
			q.RunID = ctx.ID()
		}
		ctx.Send(p.node, sim.Msg{Op: OpIsMasterDown, Body: q})
	}
}

// voteLeader is sentinelVoteLeader.
func (t *Sentinel) voteLeader(ctx sim.Ctx, reqEpoch int64, runID sim.NodeID, now time.Duration) (sim.NodeID, int64) {
	if reqEpoch > t.epoch {
		t.epoch = reqEpoch
	}
	if t.leaderEpoch < reqEpoch && t.epoch <= reqEpoch {
		t.leader, t.leaderEpoch = runID, t.epoch
		if ctx.Tracing() {
			name := ctx.Sim().Nodes[runID].Name
			ctx.TraceSaid(traceSentinelEvent, "+vote-for-leader", fmt.Sprintf("+vote-for-leader %s for epoch %d", name, t.leaderEpoch),
				sim.Say("note.redis.sentinel.vote", "node", name, "epoch", fmt.Sprint(t.leaderEpoch)))
		}
		if runID != ctx.ID() {
			t.foStarted, t.foStartAt = true, now+time.Duration(ctx.Rand().Int64N(int64(SentinelMaxDesync/time.Millisecond)))*time.Millisecond
		}
	}
	return t.leader, t.leaderEpoch
}

// getLeader is sentinelGetLeader: the Sentinel with a majority of the
// votes and at least the quorum for epoch, or None.
func (t *Sentinel) getLeader(ctx sim.Ctx, epoch int64, now time.Duration) sim.NodeID {
	votes := map[sim.NodeID]int{}
	for _, p := range t.peers {
		if p.leader != sim.None && p.leaderEpoch == t.epoch {
			votes[p.leader]++
		}
	}
	winner, most := sim.None, 0
	for _, p := range t.peers { // in the peers' order: ties go to the first
		if p.leader != sim.None && votes[p.leader] > most {
			winner, most = p.leader, votes[p.leader]
		}
	}
	want := ctx.ID()
	if winner != sim.None {
		want = winner
	}
	mine, mineEpoch := t.voteLeader(ctx, epoch, want, now)
	if mine != sim.None && mineEpoch == epoch {
		votes[mine]++
		if votes[mine] > most {
			winner, most = mine, votes[mine]
		}
	}
	voters := len(t.peers) + 1
	if winner != sim.None && (most < voters/2+1 || most < t.quorum) {
		winner = sim.None
	}
	return winner
}

// failoverStateMachine is sentinelFailoverStateMachine.
func (t *Sentinel) failoverStateMachine(ctx sim.Ctx, now time.Duration) {
	switch t.fo {
	case foWaitStart:
		if t.getLeader(ctx, t.foEpoch, now) != ctx.ID() {
			if now-t.foStartAt > min(SentinelElectionTimeout, SentinelFailoverTimeout) {
				t.event(ctx, "-failover-abort-not-elected", t.servers[0].node, "note.redis.sentinel.notElected")
				t.abort()
			}
			return
		}
		t.event(ctx, "+elected-leader", t.servers[0].node, "note.redis.sentinel.elected")
		t.fo, t.foChange = foSelectSlave, now
	case foSelectSlave:
		t.promoted = t.selectSlave(ctx, now)
		if t.promoted < 0 {
			t.event(ctx, "-failover-abort-no-good-slave", t.servers[0].node, "note.redis.sentinel.noGoodSlave")
			t.abort()
			return
		}
		t.servers[t.promoted].promoted = true
		t.fo, t.foChange = foSendSlaveOfNoOne, now
	case foSendSlaveOfNoOne:
		w := t.servers[t.promoted]
		if disconnected(ctx, w.node) {
			if now-t.foChange > SentinelFailoverTimeout {
				t.abort()
			}
			return
		}
		t.event(ctx, "+failover-state-wait-promotion", w.node, "note.redis.sentinel.slaveofNoOne")
		ctx.Send(w.node, replicaOf{To: sim.None}.msg())
		t.fo, t.foChange = foWaitPromotion, now
	case foWaitPromotion:
		if now-t.foChange > SentinelFailoverTimeout {
			t.abort()
		}
	case foReconfSlaves:
		// sentinelFailoverReconfNextSlave: the replicas other than the
		// promoted one; the old master is not among them. With one
		// replica there is none, and sentinelFailoverDetectEnd ends it.
		t.fo, t.foChange = foUpdateConfig, now
	}
}

// selectSlave is sentinelSelectSlave: a replica not SDOWN, whose link is
// up, that answered a PING in the last 5 s and an INFO in the last 5 s
// (the master being down).
func (t *Sentinel) selectSlave(ctx sim.Ctx, now time.Duration) int {
	for i := 1; i < len(t.servers); i++ {
		w := t.servers[i]
		if w.sdown || disconnected(ctx, w.node) || now-w.lastAvail > 5*SentinelPingPeriod ||
			!w.infoEver || now-w.infoRefresh > 5*SentinelPingPeriod {
			continue
		}
		return i
	}
	return -1
}

// abort is sentinelAbortFailover.
func (t *Sentinel) abort() {
	t.fo = foNone
	if t.promoted >= 0 {
		t.servers[t.promoted].promoted = false
	}
	t.promoted = -1
}

// switchTo is sentinelResetMasterAndChangeAddress after
// sentinelFailoverSwitchToPromotedSlave (or a hello with a newer config):
// the new master is monitored, the old one becomes a replica in the
// table, with fresh links; +switch-master goes to the clients.
func (t *Sentinel) switchTo(ctx sim.Ctx, to sim.NodeID, now time.Duration) {
	old := t.servers[0].node
	if to == old {
		return
	}
	ctx.TraceSaid(traceSentinelEvent, OpSwitchMaster.String(), "+switch-master "+ctx.Sim().Nodes[old].Name+" → "+ctx.Sim().Nodes[to].Name+": the clients are told",
		sim.Say("note.redis.sentinel.switchMaster", "from", ctx.Sim().Nodes[old].Name, "to", ctx.Sim().Nodes[to].Name))
	servers := []watched{{node: to, role: RoleMaster}}
	for _, w := range t.servers {
		if w.node != to {
			servers = append(servers, watched{node: w.node, role: RoleReplica})
		}
	}
	for i := range servers {
		servers[i].link(now)
	}
	t.servers = servers
	t.odown, t.fo, t.promoted = false, foNone, -1
	for i := range t.peers {
		t.peers[i].masterDown = false
	}
	s := ctx.Sim()
	for i := range s.Nodes {
		if s.Nodes[i].Client {
			ctx.Send(sim.NodeID(i), switchMaster{To: to}.msg())
		}
	}
}

// Receive implements Process: the servers' answers, the peers' questions,
// answers and hellos.
func (t *Sentinel) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	now := ctx.Mono()
	switch m.Op {
	case OpPong:
		if w := t.server(from); w != nil {
			w.pongEver, w.lastPong, w.lastAvail, w.pinging = true, now, now, false
		}
	case OpInfoReply:
		if w := t.server(from); w != nil {
			t.refreshInfo(ctx, w, infoReplyOf(m), now)
		}
	case OpIsMasterDown:
		q := m.Body.(*isMasterDown)
		r := &masterDownReply{Leader: sim.None}
		if q.Master == t.servers[0].node {
			r.Down = t.servers[0].sdown
			if q.RunID != sim.None {
				r.Leader, r.LeaderEpoch = t.voteLeader(ctx, q.Epoch, q.RunID, now)
			}
		}
		ctx.Send(from, sim.Msg{Op: OpMasterDown, Body: r})
	case OpMasterDown:
		r := m.Body.(*masterDownReply)
		for i := range t.peers {
			if p := &t.peers[i]; p.node == from {
				p.replied, p.lastReply, p.masterDown = true, now, r.Down
				if r.Leader != sim.None {
					p.leader, p.leaderEpoch = r.Leader, r.LeaderEpoch
				}
			}
		}
	case OpHello:
		h := m.Body.(*hello)
		if h.ConfigEpoch > t.configEpoch {
			t.configEpoch = h.ConfigEpoch
			if h.ConfigEpoch > t.epoch {
				t.epoch = h.ConfigEpoch
			}
			if h.Master != t.servers[0].node {
				t.event(ctx, "+config-update-from", from, "note.redis.sentinel.configUpdate")
				t.switchTo(ctx, h.Master, now)
			}
		}
	}
}

func (t *Sentinel) server(id sim.NodeID) *watched {
	for i := range t.servers {
		if t.servers[i].node == id {
			return &t.servers[i]
		}
	}
	return nil
}

// refreshInfo is the acting half of sentinelRefreshInstanceInfo.
func (t *Sentinel) refreshInfo(ctx sim.Ctx, w *watched, info infoReply, now time.Duration) {
	w.infoEver, w.infoRefresh, w.infoAsked = true, now, false
	if info.Role != w.role {
		w.role, w.roleSince = info.Role, now
	}
	isMaster := w == &t.servers[0]
	if isMaster || info.Role != RoleMaster {
		return
	}
	if w.promoted && t.fo == foWaitPromotion {
		t.configEpoch = t.foEpoch
		t.fo, t.foChange = foReconfSlaves, now
		t.event(ctx, "+promoted-slave", w.node, "note.redis.sentinel.promotedSlave")
		return
	}
	// A replica in the table that says it is a master: once it has said
	// so for 8 s, with no SDOWN in those 8 s and a sane master, make it a
	// replica of ours.
	wait := 4 * SentinelPublishPeriod
	m := t.servers[0]
	sane := m.role == RoleMaster && !m.sdown && !t.odown && m.infoEver && now-m.infoRefresh < 2*SentinelInfoPeriod
	noDown := w.sdownSince == 0 || now-w.sdownSince > wait
	if !w.promoted && sane && noDown && now-w.roleSince > wait {
		t.event(ctx, "+convert-to-slave", w.node, "note.redis.sentinel.convertToSlave")
		ctx.Send(w.node, replicaOf{To: m.node}.msg())
	}
}

// detail is what the cluster view writes under a Sentinel.
func (t *Sentinel) detail(s *sim.Sim) (string, sim.Words) {
	if len(t.servers) == 0 {
		return "", sim.Words{}
	}
	m := s.Nodes[t.servers[0].node].Name
	state := "ok"
	switch {
	case t.fo != foNone:
		state = "failover"
	case t.odown:
		state = "odown"
	case t.servers[0].sdown:
		state = "sdown"
	}
	english := map[string]string{"ok": "master %s · epoch %d", "sdown": "%s SDOWN · epoch %d",
		"odown": "%s ODOWN · epoch %d", "failover": "failing %s over · epoch %d"}[state]
	return fmt.Sprintf(english, m, t.epoch),
		sim.Say("detail.redis.sentinel."+state, "node", m, "epoch", fmt.Sprint(t.epoch))
}
