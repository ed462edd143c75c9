package app

import "github.com/lockscope/lockscope/sim"

// The tests' shorthands for the options of a scenario's design (sim.Option),
// by key.

// isOn is the switch of that key of sc's design.
func isOn(sc *sim.Scenario, key string) bool { return sc.Option(key).Value(sc).(bool) }

// count is the whole number of that key of sc's design.
func count(sc *sim.Scenario, key string) int { return sc.Option(key).Value(sc).(int) }

// number is the number of that key of sc's design.
func number(sc *sim.Scenario, key string) float64 { return sc.Option(key).Value(sc).(float64) }

// setOption sets the option of that key of sc's design.
func setOption(sc *sim.Scenario, key string, v any) { sc.Option(key).SetValue(sc, v) }
