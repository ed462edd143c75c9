package sim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// onlySome are the scenario fields and options only some designs read,
// each with a value that turns it on; a design that does not read one
// refuses it.
var onlySome = map[string]func(sc *sim.Scenario){
	"herd":           turnOn("herd", true),
	"sequential":     turnOn("sequential", true),
	"plainDel":       turnOn("plainDel", true),
	"replica":        turnOn("replica", true),
	"watchdog":       turnOn("watchdog", true),
	"fencing":        func(sc *sim.Scenario) { sc.Fencing = true },
	"failoverAfter":  turnOn("failoverAfter", sim.Duration(5*time.Second)),
	"sentinels":      turnOn("sentinels", 3),
	"downAfter":      turnOn("downAfter", sim.Duration(5*time.Second)),
	"preVote":        turnOn("preVote", true),
	"contextTimeout": turnOn("contextTimeout", true),
	"checkValidity":  turnOn("checkValidity", true),
}

// turnOn sets the option of that key to v in a scenario of any design:
// its own, or another design's it does not declare.
func turnOn(key string, v any) func(sc *sim.Scenario) {
	return func(sc *sim.Scenario) { declared(key).SetValue(sc, v) }
}

// declared is the first registered design's option of that key.
func declared(key string) *sim.Option {
	for _, m := range sim.ModeNames() {
		if o := sim.OptionOf(m, key); o != nil {
			return o
		}
	}
	panic("no design declares " + key)
}

// A design's Traits.Fields are the truth about it: every field only some
// designs read is accepted by the designs that list it and refused, naming
// the field, by the others.
func TestTraitsFieldsMatchValidation(t *testing.T) {
	for _, mode := range sim.ModeNames() {
		tr := sim.TraitsOf(mode)
		for field, set := range onlySome {
			sc, err := sim.Defaults(mode)
			require.NoError(t, err)
			set(sc)
			err = sc.Validate()
			if tr.Reads(field) {
				assert.NoError(t, err, "%s reads %s", mode, field)
			} else if assert.Error(t, err, "%s refuses %s", mode, field) {
				assert.True(t, strings.HasPrefix(err.Error(), field+":"), "%s: %s names the field: %v", mode, field, err)
			}
		}
	}
}

// The traits the window and the command line ask for, design by design.
func TestTraits(t *testing.T) {
	tests := []struct {
		mode, lease, servers string
		token                sim.FencingToken
		validity, quorum     bool
		nodes                bool
		inService            bool
	}{
		{"redis", "ttl", "servers", sim.TokenWhenFencing, false, false, false, false},
		{"redlock", "ttl", "masters", sim.NoToken, true, true, true, false},
		{"zookeeper", "session", "servers", sim.TokenAlways, false, false, true, false},
		{"etcd", "lease", "members", sim.TokenAlways, false, false, true, true},
		{"dynamodb", "leaseDuration", "servers", sim.NoToken, false, false, false, false},
		{"kubernetes", "leaseDuration", "members", sim.TokenAlways, false, false, true, false},
	}
	for _, tt := range tests {
		tr := sim.TraitsOf(tt.mode)
		assert.Equal(t, tt.lease, tr.LeaseWord, tt.mode)
		assert.Equal(t, tt.servers, tr.ServerWord, tt.mode)
		assert.Equal(t, tt.token, tr.Token, tt.mode)
		assert.Equal(t, tt.validity, tr.Validity, tt.mode)
		assert.Equal(t, tt.quorum, tr.ClientQuorum, tt.mode)
		assert.Equal(t, tt.nodes, tr.Reads("nodes"), tt.mode)
		assert.Equal(t, tt.inService, tr.FencedValueInService, tt.mode)
	}
	assert.Equal(t, sim.Traits{}, sim.TraitsOf("no-such-mode"))
	assert.False(t, sim.TraitsOf("redis").HasTokens(false), "Redis takes a token only with fencing")
	assert.True(t, sim.TraitsOf("redis").HasTokens(true))
	assert.True(t, sim.TraitsOf("etcd").HasTokens(false))
	assert.False(t, sim.TraitsOf("redlock").HasTokens(true))
}

// Every grant of a design whose Traits say Validity carries one in the
// summary, and no other design's does.
func TestSummaryValidityFollowsTraits(t *testing.T) {
	for _, mode := range sim.ModeNames() {
		sc, err := sim.Defaults(mode)
		require.NoError(t, err)
		sc.Duration = sim.Duration(20 * time.Second)
		s, err := sim.New(sc)
		require.NoError(t, err)
		sum := s.Run()
		require.NotEmpty(t, sum.Grants, mode)
		for _, g := range sum.Grants {
			assert.Equal(t, sim.TraitsOf(mode).Validity, g.ValidityMs != nil, mode)
		}
	}
}

// wordlessMode reads no field only some designs read and says nothing of
// why it refuses fencing.
type wordlessMode struct{ timerMode }

func (wordlessMode) Name() string       { return "wordless-test" }
func (wordlessMode) Traits() sim.Traits { return sim.Traits{} }

// A design that cannot say why it refuses a field is a mistake found when
// it registers, and it is not registered.
func TestRegisterModeWantsWordsForEveryRefusal(t *testing.T) {
	assert.PanicsWithValue(t, "sim: mode wordless-test does not read fencing and says nothing of why (Traits.Refusals)",
		func() { sim.RegisterMode(wordlessMode{}) })
	_, err := sim.LookupMode("wordless-test")
	assert.Error(t, err)
}

// A refusal is a value each caller may keep: two scenarios refused for the
// same field get two errors with the same words.
func TestRefusalsAreFreshValues(t *testing.T) {
	errs := make([]*sim.FieldError, 2)
	for i := range errs {
		sc, err := sim.Defaults("zookeeper")
		require.NoError(t, err)
		onlySome["watchdog"](sc)
		require.ErrorAs(t, sc.Validate(), &errs[i])
	}
	assert.NotSame(t, errs[0], errs[1])
	assert.Equal(t, *errs[0], *errs[1])
	errs[0].Field = "changed"
	sc, _ := sim.Defaults("zookeeper")
	onlySome["watchdog"](sc)
	assert.EqualError(t, sc.Validate(), "watchdog: only for redis and redlock; a zookeeper session is kept alive by pings")
}

// A field only some designs read is refused by every other design in the
// field's own words, which name the designs that read it (from their
// Traits), by the scenario's validation and by the window's question
// alike: one check.
func TestFieldsRefusedByTheDesignsThatDoNotReadThem(t *testing.T) {
	tests := []struct {
		field, key, english string
		readers             int
	}{
		{"failoverAfter", "field.failoverAfter", "failoverAfter: only for redis with a replica (Sentinel's delay)", 1},
		{"sentinels", "field.sentinels", "sentinels: only for redis with a replica (Sentinel processes)", 1},
		{"downAfter", "field.downAfter", "downAfter: only for redis with Sentinels (down-after-milliseconds)", 1},
		{"preVote", "field.preVote", "preVote: only for etcd (raft's pre-vote)", 1},
		{"contextTimeout", "field.contextTimeout", "contextTimeout: only for redlock (go-redis's ContextTimeoutEnabled)", 1},
		{"checkValidity", "field.onlyFor", "checkValidity: only for redlock", 1},
		{"sequential", "field.onlyFor", "sequential: only for redlock", 1},
		{"herd", "field.herd", "herd: only zookeeper and etcd have watches to herd", 2},
	}
	for _, tt := range tests {
		readers := 0
		for _, mode := range sim.ModeNames() {
			if sim.TraitsOf(mode).Reads(tt.field) {
				readers++
				continue
			}
			sc, err := sim.Defaults(mode)
			require.NoError(t, err)
			onlySome[tt.field](sc)
			for _, err := range []error{sc.Validate(), sim.ValidateDesign(sc)} {
				var fe *sim.FieldError
				if assert.ErrorAs(t, err, &fe, "%s refuses %s", mode, tt.field) {
					assert.Equal(t, tt.english, fe.Error(), mode)
					assert.Equal(t, tt.key, fe.Words.Key, mode)
					assert.Equal(t, tt.field, fe.Field, mode)
					assert.Contains(t, fe.Words.Parts, "designs", "the readers are a part said in the reader's language")
				}
			}
		}
		assert.Equal(t, tt.readers, readers, "%s's readers", tt.field)
	}
}

// The storage node is used unless fencing is on and the design keeps the
// fenced value in the lock service (etcd's guarded Txn): the breaker
// leaves the storage out of its faults then.
func TestStorageFollowsFencedValueInService(t *testing.T) {
	for _, mode := range sim.ModeNames() {
		sc, err := sim.Defaults(mode)
		require.NoError(t, err)
		assert.True(t, sc.UsesStorage(), "%s without fencing", mode)
		if !sim.TraitsOf(mode).Reads("fencing") {
			continue
		}
		sc.Fencing = true
		assert.Equal(t, !sim.TraitsOf(mode).FencedValueInService, sc.UsesStorage(), "%s with fencing", mode)
	}
	sc, err := sim.Defaults("etcd")
	require.NoError(t, err)
	sc.Fencing = true
	assert.False(t, sc.UsesStorage(), "etcd's fenced write is its Txn")
}

// placeTakenMode claims the place of an existing design.
type placeTakenMode struct{ timerMode }

func (placeTakenMode) Name() string       { return "place-taken-test" }
func (placeTakenMode) Traits() sim.Traits { return sim.TraitsOf("redis") }

// The designs are listed in the order of their places, which is the order
// of the window's tabs; a mode without a place (a test's) runs when named
// but is not listed, and two designs cannot take one place.
func TestDesignsAreListedByTheirPlaces(t *testing.T) {
	assert.Equal(t, []string{"redis", "redlock", "zookeeper", "etcd", "kubernetes", "dynamodb"}, sim.ModeNames())
	_, err := sim.LookupMode("timer-test")
	require.NoError(t, err, "a test's mode runs when named")
	assert.PanicsWithValue(t, "sim: modes redis and place-taken-test both take place 1",
		func() { sim.RegisterMode(placeTakenMode{}) })
	_, err = sim.LookupMode("place-taken-test")
	assert.Error(t, err, "it is not registered")
}
