// Package dynamodb is the DynamoDB lock's window side: its state picture
// (Item: the lock item and what each client has seen of it, on its own
// clock) and its tab, the value Tab, which the list of designs installs.
package dynamodb

import (
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	dynamodbsim "github.com/lockscope/lockscope/sim/dynamodb"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// dynamodbProtocol is the DynamoDB Lock Client as the scenario runs it,
// with its figures, one short line per step.
func dynamodbProtocol(sc *sim.Scenario) []string {
	lease := widgets.ShortTime(sc.TTL.D())
	out := []string{
		i18n.T("dynamodb.proto.acquire"),
		i18n.F("dynamodb.proto.wait", "lease", lease, "refresh", widgets.ShortTime(dynamodbsim.RefreshPeriod.Of(sc).D())),
		i18n.F("dynamodb.proto.heartbeat", "every", widgets.ShortTime(dynamodbsim.HeartbeatPeriod.Of(sc).D())),
	}
	if safe := dynamodbsim.SafeTime.Of(sc).D(); safe > 0 {
		out = append(out, i18n.F("dynamodb.proto.monitor", "safe", widgets.ShortTime(safe)))
	}
	if dynamodbsim.CheckExpired.Of(sc) {
		out = append(out, i18n.T("dynamodb.proto.writeChecked"))
	} else {
		out = append(out, i18n.T("dynamodb.proto.write"))
	}
	return append(out, i18n.T("dynamodb.proto.release"))
}

// Tab is the DynamoDB lock's tab: its state picture, the preset it opens
// with, its sliders and toggles (the shared ones with its rules, its
// options') and its protocol lines. It is the design's window side, a
// value: the list of designs (package designs) installs it with
// designtab.Register at start.
var Tab = designtab.ModeTab{
	Mode:       "dynamodb",
	Title:      "DynamoDB",
	StateTitle: "state.dynamodb",
	Preset:     "dynamodb-paused-holder",
	NewState:   func() designtab.StateView { return NewItem() },
	Sliders: []string{"ttl", dynamodbsim.HeartbeatPeriod.Key, dynamodbsim.RefreshPeriod.Key, dynamodbsim.SafeTime.Key,
		"work", "pause", "latency", "clients", "clockDrift"},
	Toggles: []string{dynamodbsim.CheckExpired.Key},
	SliderRules: map[string]func(*designtab.SliderSpec){
		"ttl": func(s *designtab.SliderSpec) {
			s.Words, s.Label, s.Min, s.Max, s.Step = "dynamodbLease", "leaseDuration", 1, 60, 1
		},
		dynamodbsim.HeartbeatPeriod.Key: func(s *designtab.SliderSpec) { s.Min, s.Max = 0.5, 20 },
		dynamodbsim.RefreshPeriod.Key:   func(s *designtab.SliderSpec) { s.Min, s.Max, s.Step = 0.1, 5, 0.1 },
		dynamodbsim.SafeTime.Key:        func(s *designtab.SliderSpec) { s.Label, s.Max = "safeTimeWithoutHeartbeat", 19 },
	},
	ToggleRules: map[string]func(*designtab.ToggleSpec){
		dynamodbsim.CheckExpired.Key: func(t *designtab.ToggleSpec) { t.Label = "isExpired() check" },
	},
	Protocol: dynamodbProtocol,
}
