package sim

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScenarioFieldsAreTheFile holds scenarioFields to the Scenario type:
// every member of the file every design has but the timed lists is there
// once, under its JSON name, and its accessors reach that member and no
// other. A design's options (Scenario.Options) are members of their own.
func TestScenarioFieldsAreTheFile(t *testing.T) {
	typ := reflect.TypeOf(Scenario{})
	var members []string
	var index []int // the struct field of each member
	for i := range typ.NumField() {
		name := strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]
		if name == "captions" || name == "changes" || name == "-" {
			continue
		}
		members = append(members, name)
		index = append(index, i)
	}
	var names []string
	for _, f := range scenarioFields {
		names = append(names, f.name)
	}
	require.Equal(t, members, names, "scenarioFields lists the file's members in the file's order")

	for i, f := range scenarioFields {
		var a, b Scenario
		set(t, reflect.ValueOf(&b).Elem().Field(index[i]))
		assert.False(t, f.equal(&a, &b), "%s: equal sees its member", f.name)
		assert.True(t, f.isSet(&b), "%s: isSet sees its member", f.name)
		for _, g := range scenarioFields {
			if g.name != f.name {
				assert.True(t, g.equal(&a, &b), "%s: %s's equal does not look at it", f.name, g.name)
			}
		}
		f.copy(&a, &b)
		assert.Equal(t, b, a, "%s: copy copies its member", f.name)
		assert.Equal(t, reflect.ValueOf(&b).Elem().Field(index[i]).Addr().Interface(), f.value(&b), "%s: value is the member", f.name)
	}
}

// set gives v, a Scenario member, a value other than its zero.
func set(t *testing.T, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int64:
		v.SetInt(3)
	case reflect.Float64:
		v.SetFloat(0.25)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.ValueOf([]Fault{{At: Duration(time.Second), Partition: [][]string{{"client-1"}}, For: Duration(time.Second)}}))
	default:
		t.Fatalf("no value for a %s", v.Type())
	}
}

// TestDifference: what tells one scenario from another, typed: the
// fields a change may set with their new values, and those that shape the
// whole run by name.
func TestDifference(t *testing.T) {
	for _, c := range []struct {
		name  string
		mode  string // redis when empty
		edit  func(sc *Scenario)
		set   string // the settings as the file writes them
		fixed []string
	}{
		{"nothing", "", func(sc *Scenario) {}, `{}`, nil},
		{"a value set to what it was", "", func(sc *Scenario) { sc.TTL = Duration(10 * time.Second) }, `{}`, nil},
		{"ttl", "", func(sc *Scenario) { sc.TTL = Duration(48 * time.Second) }, `{"ttl":"48s"}`, nil},
		{"two switches", "", func(sc *Scenario) { setOption(sc, "watchdog", true); sc.Fencing = true }, `{"fencing":true,"watchdog":true}`, nil},
		{"a switch turned off", "zookeeper", func(sc *Scenario) { setOption(sc, "respectSuspended", false) }, `{"respectSuspended":false}`, nil},
		{"a fraction and a count", "redlock", func(sc *Scenario) { setOption(sc, "driftFactor", 0.05); sc.Tries = 7 }, `{"driftFactor":0.05,"tries":7}`, nil},
		{"clients shape the run", "", func(sc *Scenario) { sc.Clients = 3 }, `{}`, []string{"clients"}},
		{"a pause's length shapes the run", "", func(sc *Scenario) { sc.Faults[0].For = Duration(9 * time.Second) }, `{}`, []string{"faults"}},
		{"a partition's groups shape the run", "", func(sc *Scenario) { sc.Faults[1].Partition[0][0] = "client-2" }, `{}`, []string{"faults"}},
		{"both kinds", "redlock", func(sc *Scenario) {
			sc.Seed, sc.Work = 2, Duration(time.Second)
			setOption(sc, "nodes", 3)
		}, `{"work":"1s"}`, []string{"seed", "nodes"}},
		{"an option that shapes the run", "", func(sc *Scenario) { setOption(sc, "replica", true) }, `{}`, []string{"replica"}},
		{"captions and changes are not controls", "", func(sc *Scenario) {
			sc.Captions = []Caption{{Text: "x"}}
			sc.Changes = []Change{{At: Duration(time.Second)}}
		}, `{}`, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := scenarioForChanges(t)
			if c.mode != "" {
				before = scenarioIn(t, c.mode)
			}
			after := before.Clone()
			c.edit(after)
			got, fixed := Difference(before, after)
			assert.Equal(t, c.fixed, fixed)
			b, err := json.Marshal(got)
			require.NoError(t, err)
			assert.Equal(t, c.set, string(b))
			assert.Equal(t, c.set == `{}`, got.Empty())

			// Applied to before, the settings give after in every field a
			// change may set.
			applied := Change{Set: got}.apply(before)
			again, _ := Difference(applied, after)
			assert.True(t, again.Empty(), "applied, nothing a change may set is left to tell")
			assert.Equal(t, before.Clone(), before, "apply leaves its scenario alone")
		})
	}
}

// scenarioForChanges is a redis scenario with a pause and a partition.
func scenarioForChanges(t *testing.T) *Scenario { return scenarioIn(t, "redis") }

// scenarioIn is a scenario of mode with a pause and a partition.
func scenarioIn(t *testing.T, mode string) *Scenario {
	t.Helper()
	sc, err := Defaults(mode)
	require.NoError(t, err)
	sc, err = ParseScenario([]byte(`{"mode": "` + mode + `", "faults": [
		{"at": "1s", "pause": "client-1", "for": "8s"},
		{"at": "2s", "partition": [["client-1", "` + sc.ServerNames()[0] + `"]], "for": "1s"}]}`))
	require.NoError(t, err)
	return sc
}

// setOption sets the option of that key of sc's design.
func setOption(sc *Scenario, key string, v any) { sc.Option(key).SetValue(sc, v) }

// option is the value of the option of that key of sc's design.
func option(sc *Scenario, key string) any { return sc.Option(key).Value(sc) }

// TestChangesApplyInTheSimulatorsOrder: the scenario at an instant has the
// changes up to it applied, by time and then by place in the file, the
// settings of none applied changing nothing, and none left.
func TestChangesApplyInTheSimulatorsOrder(t *testing.T) {
	sc, err := ParseScenario([]byte(`{"mode": "redis", "ttl": "10s", "changes": [
		{"at": "5s", "set": {"ttl": "30s", "watchdog": true}},
		{"at": "2s", "set": {"ttl": "20s", "work": "1s"}},
		{"at": "5s", "set": {"ttl": "40s"}}]}`))
	require.NoError(t, err)
	for _, c := range []struct {
		at       time.Duration
		ttl      time.Duration
		work     time.Duration
		watchdog bool
	}{
		{0, 10 * time.Second, 5 * time.Second, false},
		{2*time.Second - 1, 10 * time.Second, 5 * time.Second, false},
		{2 * time.Second, 20 * time.Second, time.Second, false},
		{5 * time.Second, 40 * time.Second, time.Second, true}, // the later entry at 5 s wins
		{time.Hour, 40 * time.Second, time.Second, true},
	} {
		got := sc.At(c.at)
		assert.Equal(t, c.ttl, got.TTL.D(), "ttl at %v", c.at)
		assert.Equal(t, c.work, got.Work.D(), "work at %v", c.at)
		assert.Equal(t, c.watchdog, option(got, "watchdog"), "watchdog at %v", c.at)
		assert.Nil(t, got.Changes)
	}
	assert.Len(t, sc.Changes, 3, "At leaves the scenario's changes alone")

	var none Settings
	assert.True(t, none.Empty())
	assert.Nil(t, none.Fields())
	assert.Equal(t, "", none.Value("ttl"))
	same := sc.Clone()
	none.applyTo(same)
	assert.Equal(t, sc, same, "no settings, no change")

	// The engine applies them the same way: the run's scenario at its end
	// is the scenario at the end.
	s, err := New(sc)
	require.NoError(t, err)
	s.Run()
	end := sc.At(time.Hour)
	end.Changes = sc.Changes
	assert.Equal(t, end, s.Scenario)
}

// TestSettingsMergeAndDrop: a fork's settings merge into a change at the
// same instant (the new values win) and drop from later ones.
func TestSettingsMergeAndDrop(t *testing.T) {
	old := settings(t, `{"ttl": "20s", "watchdog": true}`)
	fork := settings(t, `{"ttl": "30s", "fencing": true}`)
	assert.Equal(t, settings(t, `{"fencing": true, "ttl": "30s", "watchdog": true}`), old.With(fork))
	assert.Equal(t, settings(t, `{"watchdog": true}`), old.Without(fork))
	assert.True(t, old.Without(old).Empty())
	assert.Equal(t, old, old.With(Settings{}))
	assert.Equal(t, []string{"ttl", "watchdog"}, old.Fields())
	assert.Equal(t, "20s", old.Value("ttl"))
	assert.Equal(t, "true", old.Value("watchdog"))
	assert.Equal(t, "", old.Value("fencing"))
	assert.True(t, old.Has("ttl"))
	assert.False(t, old.Has("clients"), "a field a change may not set is never set")
	assert.Equal(t, "ttl=20s, watchdog=true", Change{Set: old}.String())
}

// settings reads a "set" object as the scenario file has it.
func settings(t *testing.T, set string) Settings {
	t.Helper()
	var s Settings
	require.NoError(t, json.Unmarshal([]byte(set), &s))
	return s
}

// TestChangesReadOnceAndRefused: a change's values are read when the file
// is, and a field a change may not set, or a value of the wrong kind, is
// refused then, naming the entry and the field.
func TestChangesReadOnceAndRefused(t *testing.T) {
	for _, c := range []struct{ changes, err string }{
		{`[{"at": "1s", "set": {"clients": 3}}]`, "changes[0].set.clients: cannot change during a run (one of " +
			strings.Join(ChangeableFields(), ", ") + ")"},
		{`[{"at": "1s", "set": {"ttl": "5s"}}, {"at": "2s", "set": {"seed": 2, "ttl": "6s"}}]`, "changes[1].set.seed: cannot change during a run"},
		{`[{"at": "1s", "set": {"ttl": "5x"}}]`, `changes[0].set.ttl: want a duration such as "10s", got "5x"`},
		{`[{"at": "1s", "set": {"watchdog": "on"}}]`, `changes[0].set.watchdog: want bool, got string`},
		{`[{"at": "1x", "set": {"ttl": "5s"}}]`, `changes[0].at: want a duration such as "10s", got "1x"`},
		{`[{"at": "1s", "set": {}}]`, `changes[0].set: want at least one field`},
		{`[{"at": "1s"}]`, `changes[0].set: want at least one field`},
		{`[{"at": "1s", "set": {"ttl": "-5s"}}]`, `changes[0].set: ttl: -5s is negative`},
	} {
		_, err := ParseScenario([]byte(`{"mode": "redis", "changes": ` + c.changes + `}`))
		assert.ErrorContains(t, err, c.err, c.changes)
	}
	// ChangeableFields are the fields a change may set: those every design
	// has, then the designs' changeable options, design by design.
	assert.Equal(t, []string{"ttl", "work", "think", "latency", "jitter", "fencing", "retryDelay", "tries",
		"watchdog", "plainDel", "driftFactor", "checkValidity", "readTimeout", "respectSuspended"}, ChangeableFields())
}

// A change that sets an option the scenario's design does not declare is
// refused as the file setting it would be, in the design's words.
func TestChangesOfAnotherDesignsOptionRefused(t *testing.T) {
	_, err := ParseScenario([]byte(`{"mode": "zookeeper", "changes": [{"at": "1s", "set": {"plainDel": true}}]}`))
	assert.EqualError(t, err, "changes[0].set: plainDel: only for redis; a zookeeper client releases by deleting its own znode")
	_, err = ParseScenario([]byte(`{"mode": "redis", "changes": [{"at": "1s", "set": {"respectSuspended": false}}]}`))
	assert.NoError(t, err, "an option the others ignore is taken, and changes nothing")
}

// TestChangesSaveAndLoadByteForByte: a scenario with changes, written and
// read back, is the same scenario and writes the same bytes, in the form
// the file has always had ("set" an object of the fields by name, sorted).
func TestChangesSaveAndLoadByteForByte(t *testing.T) {
	sc := scenarioIn(t, "redlock")
	for _, edit := range []func(sc *Scenario){
		func(sc *Scenario) { setOption(sc, "checkValidity", true) },
		func(sc *Scenario) {
			sc.TTL = Duration(1500 * time.Millisecond)
			setOption(sc, "watchdog", true)
			setOption(sc, "driftFactor", 0.02)
		},
		func(sc *Scenario) { sc.Think, sc.Tries, sc.RetryDelay = 0, 4, Duration(250*time.Millisecond) },
	} {
		after := sc.Clone()
		edit(after)
		set, fixed := Difference(sc, after)
		require.Empty(t, fixed)
		sc.Changes = append(sc.Changes, Change{At: Duration(time.Duration(len(sc.Changes)+1) * time.Second), Set: set})
	}
	require.NoError(t, sc.Validate())
	saved, err := sc.Marshal()
	require.NoError(t, err)
	assert.Contains(t, string(saved), `"changes": [
    {
      "at": "1s",
      "set": {
        "checkValidity": true
      }
    },
    {
      "at": "2s",
      "set": {
        "driftFactor": 0.02,
        "ttl": "1.5s",
        "watchdog": true
      }
    },
    {
      "at": "3s",
      "set": {
        "retryDelay": "250ms",
        "think": "0s",
        "tries": 4
      }
    }
  ]`)
	loaded, err := ParseScenario(saved)
	require.NoError(t, err)
	assert.Equal(t, sc, loaded)
	again, err := loaded.Marshal()
	require.NoError(t, err)
	assert.Equal(t, string(saved), string(again))
}
