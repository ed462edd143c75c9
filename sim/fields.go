package sim

import (
	"fmt"
	"sort"
	"strings"
)

// designField is a field every design's scenario has but only some
// designs read (a scenario sets it when it is not its zero,
// scenarioField.isSet), and the words a design that does not read it
// refuses it with when the design has none of its own. A design's own
// settings are its options (Traits.Options), refused by the designs that
// do not declare them in the same way (refuseUnread).
type designField struct {
	scenarioField
	// refusal is the field's own words for a design that does not read
	// it, given the designs that do (readers, asked of their Traits when
	// the field is refused); nil when every design that does not read it
	// must say why in its own words.
	refusal func(readBy []string) *FieldError
}

// readBySome is the designField of the scenario field name.
func readBySome(name string, refusal func(readBy []string) *FieldError) designField {
	return designField{scenarioFieldsNamed(name)[0], refusal}
}

// designFields are the fields every scenario has that only some designs
// read, in the order they are checked. A design lists those it reads in
// Traits.Fields and refuses the others through refuseUnread, as it
// refuses the options of other designs.
var designFields = []designField{
	readBySome("fencing", nil),
}

// OnlyFor is the plain refusal of an option or field: "only for" the
// designs that read it. A design gives it as its option's Refusal.
func OnlyFor(field string) func(readBy []string) *FieldError { return onlyFor(field) }

// OnlyReaders is a refusal of an option or field in its own words, which
// name the designs that read it: key is their translation key, with the
// designs as its part "designs", and english has one %s for them ("only
// for %s (raft's pre-vote)"). A design gives it as its option's Refusal.
func OnlyReaders(field, key, english string) func(readBy []string) *FieldError {
	return func(r []string) *FieldError {
		return FieldErr(field, say(key).Part("designs", designsWords(r)), english, designsEnglish(r))
	}
}

// onlyFor is the plain refusal of field: "only for" the designs that read
// it.
func onlyFor(field string) func(readBy []string) *FieldError {
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

// refuseUnread refuses the first field only some designs read, or option
// of another design, that sc sets and m does not read: in m's own words
// (Traits.Refusals), else in the field's or the option's, in the order
// of refusable.
func refuseUnread(sc *Scenario, m Mode) error {
	tr := m.Traits()
	for _, k := range refusable() {
		if !k.setIn(sc) || tr.Reads(k.name) {
			continue
		}
		if why := tr.Refusals[k.name]; why != nil {
			if fe, ok := why.(*FieldError); ok {
				cp := *fe // a value each caller may keep
				return &cp
			}
			return why
		}
		return k.refusal(readersOf(k.name)) // a new value each time
	}
	return nil
}

// refusableKey is a field or an option's key a design that does not read
// it refuses.
type refusableKey struct {
	name    string
	setIn   func(sc *Scenario) bool
	refusal func(readBy []string) *FieldError
}

// refusable lists the fields only some designs read (designFields) and
// the options' keys other designs refuse (Elsewhere Refused, in the order
// of optionKeysListed): the order refuseUnread checks them in.
func refusable() []refusableKey {
	var out []refusableKey
	for _, f := range designFields {
		out = append(out, refusableKey{f.name, f.isSet, f.refusal})
	}
	for _, k := range optionKeysListed() {
		if k.elsewhere != Refused {
			continue
		}
		name := k.key
		out = append(out, refusableKey{name, func(sc *Scenario) bool { return sc.Options.otherSet(sc, name) }, k.refusal})
	}
	return out
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

// validateDesign is ValidateDesign with the mode looked up: what it does
// not read refused, its options' values checked (their declarations),
// then the design's own checks.
func validateDesign(sc *Scenario, m Mode) error {
	if err := refuseUnread(sc, m); err != nil {
		return err
	}
	if err := validateOptions(sc); err != nil {
		return err
	}
	return m.Validate(sc)
}

// CarryDesignFields copies onto dst every field only some designs read
// (designFields) and every option of dst's design from src (its design's
// option of the same key, when it has one): what a scenario derived from
// another (the trade-off map's base) keeps of it, whatever options the
// designs declare.
func CarryDesignFields(dst, src *Scenario) {
	for _, f := range designFields {
		f.copy(dst, src)
	}
	for _, o := range dst.Options.setFor(dst).listOrNil() {
		if b, ok := src.Options.bitsKey(src, o.Key); ok {
			dst.Options.put(dst, o, b)
		}
	}
}

// checkRefusals says which field or option's key a design could not
// refuse: one it does not read, with no words of its own and none of the
// field's or of any declaration of the option; and which option m
// declares that a design registered before it could not refuse. set and
// fresh are m's options (bindOptions), not registered yet.
func checkRefusals(m Mode, set *optionSet, fresh []*optionKey) error {
	tr := m.Traits()
	words := func(name string) bool {
		if k, ok := optionKeys[name]; ok && k.refusal != nil {
			return true
		}
		for _, o := range set.list {
			if o.Key == name && o.Refusal != nil {
				return true
			}
		}
		return false
	}
	for _, f := range designFields {
		if !tr.Reads(f.name) && f.refusal == nil && tr.Refusals[f.name] == nil {
			return fmt.Errorf("mode %s does not read %s and says nothing of why (Traits.Refusals)", m.Name(), f.name)
		}
	}
	for _, name := range optionKeyOrder {
		if k := optionKeys[name]; k.elsewhere == Refused && !tr.Reads(name) && !words(name) && tr.Refusals[name] == nil {
			return fmt.Errorf("mode %s does not read %s and says nothing of why (Traits.Refusals)", m.Name(), name)
		}
	}
	for _, k := range fresh {
		if k.elsewhere != Refused || words(k.key) {
			continue
		}
		for _, n := range sortedModes() {
			if o := modes[n]; !o.Traits().Reads(k.key) && o.Traits().Refusals[k.key] == nil {
				return fmt.Errorf("mode %s does not read %s, which mode %s declares, and says nothing of why (Traits.Refusals)", n, k.key, m.Name())
			}
		}
	}
	return nil
}

// sortedModes are the registered modes' names, sorted.
func sortedModes() []string {
	out := make([]string, 0, len(modes))
	for n := range modes {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
