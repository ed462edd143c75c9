package sim

import (
	"fmt"
	"strings"
)

// designField is a scenario field only some designs read (a scenario
// sets it when it is not its zero, scenarioField.isSet), and the words a
// design that does not read it refuses it with when the design has none
// of its own (Traits.Refusals).
type designField struct {
	scenarioField
	// refusal is the field's own words for a design that does not read
	// it, given the designs that do (readers, asked of their Traits when
	// the field is refused); nil when every design that does not read it
	// must say why in its own words.
	refusal func(readers []string) *FieldError
}

// readBySome is the designField of the scenario field name.
func readBySome(name string, refusal func(readers []string) *FieldError) designField {
	return designField{scenarioFieldsNamed(name)[0], refusal}
}

// designFields are the fields only some designs read, in the order they
// are checked. A design lists those it reads in Traits.Fields and refuses
// the others through refuseUnread, so a field a new design adds is refused
// by the existing designs without an edit in any of them. A refusal names
// the designs that read the field from their Traits: the core names none.
var designFields = []designField{
	readBySome("failoverAfter", func(r []string) *FieldError {
		return FieldErr("failoverAfter", say("field.failoverAfter").Part("designs", designsWords(r)),
			"only for %s with a replica (Sentinel's delay)", designsEnglish(r))
	}),
	readBySome("preVote", func(r []string) *FieldError {
		return FieldErr("preVote", say("field.preVote").Part("designs", designsWords(r)),
			"only for %s (raft's pre-vote)", designsEnglish(r))
	}),
	readBySome("contextTimeout", func(r []string) *FieldError {
		return FieldErr("contextTimeout", say("field.contextTimeout").Part("designs", designsWords(r)),
			"only for %s (go-redis's ContextTimeoutEnabled)", designsEnglish(r))
	}),
	readBySome("checkValidity", onlyFor("checkValidity")), // the redsync application's look at Until() (issue 13)
	readBySome("fencing", nil),
	readBySome("replica", nil),
	readBySome("herd", func(r []string) *FieldError {
		return FieldErr("herd", say("field.herd").Part("designs", designsWords(r)),
			"only %s have watches to herd", designsEnglish(r))
	}),
	readBySome("plainDel", nil),
	readBySome("sequential", onlyFor("sequential")),
	readBySome("watchdog", nil),
}

// onlyFor is the plain refusal of field: "only for" the designs that read
// it.
func onlyFor(field string) func(readers []string) *FieldError {
	return func(r []string) *FieldError {
		return FieldErr(field, say("field.onlyFor").Part("designs", designsWords(r)), "only for %s", designsEnglish(r))
	}
}

// readersOf are the registered designs that read field, in display order.
func readersOf(field string) []string {
	var out []string
	for _, n := range ModeNames() {
		if modes[n].Traits().Reads(field) {
			out = append(out, n)
		}
	}
	return out
}

// designsEnglish writes design names as a list: "redis", "zookeeper and
// etcd", "redis, redlock and etcd".
func designsEnglish(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// designsWords is designsEnglish in the reader's language; a design's
// name is the same in every language.
func designsWords(names []string) Words {
	if len(names) < 2 {
		return AsIs(strings.Join(names, ""))
	}
	return say("field.designsAnd", "some", strings.Join(names[:len(names)-1], ", "), "last", names[len(names)-1])
}

// refuseUnread refuses the first field only some designs read that sc sets
// and m does not read: in m's own words (Traits.Refusals), else in the
// field's.
func refuseUnread(sc *Scenario, m Mode) error {
	tr := m.Traits()
	for _, f := range designFields {
		if !f.isSet(sc) || tr.Reads(f.name) {
			continue
		}
		if why := tr.Refusals[f.name]; why != nil {
			if fe, ok := why.(*FieldError); ok {
				cp := *fe // a value each caller may keep
				return &cp
			}
			return why
		}
		return f.refusal(readersOf(f.name)) // a new value each time
	}
	return nil
}

// ValidateDesign is the design's own say on a scenario: the fields it does
// not read refused in its words (Traits) and the values of its own checked
// (Mode.Validate), without the checks every design shares. The window asks
// it why a toggle is off limits.
func ValidateDesign(sc *Scenario) error {
	m, err := LookupMode(sc.Mode)
	if err != nil {
		return err
	}
	return validateDesign(sc, m)
}

// validateDesign is ValidateDesign with the mode looked up.
func validateDesign(sc *Scenario, m Mode) error {
	if err := refuseUnread(sc, m); err != nil {
		return err
	}
	return m.Validate(sc)
}

// CarryDesignFields copies onto dst every field only some designs read
// (designFields) from src: what a scenario derived from another (the
// trade-off map's base) keeps of it, whatever fields the designs add.
func CarryDesignFields(dst, src *Scenario) {
	for _, f := range designFields {
		f.copy(dst, src)
	}
}

// checkRefusals says which field a design could not refuse: one it does
// not read, with no words of its own and none of the field's.
func checkRefusals(m Mode) error {
	tr := m.Traits()
	for _, f := range designFields {
		if !tr.Reads(f.name) && f.refusal == nil && tr.Refusals[f.name] == nil {
			return fmt.Errorf("mode %s does not read %s and says nothing of why (Traits.Refusals)", m.Name(), f.name)
		}
	}
	return nil
}
