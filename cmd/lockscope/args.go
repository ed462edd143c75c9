package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// isPositional reports whether a subcommand argument is a name rather than
// a flag ("-" counts as a name).
func isPositional(a string) bool { return a == "-" || !strings.HasPrefix(a, "-") }

// flagAt reads the flag at args[*i] the way every subcommand takes flags —
// one or two dashes, `--flag value` or `--flag=value` — and returns its
// name, whether it carried `=value`, and a function that yields the value,
// consuming the next argument when it was not inline.
func flagAt(args []string, i *int) (name string, inline bool, value func() (string, error)) {
	name, val, inline := strings.Cut(strings.TrimLeft(args[*i], "-"), "=")
	return name, inline, func() (string, error) {
		if inline {
			return val, nil
		}
		if *i+1 >= len(args) {
			return "", fmt.Errorf("--%s: needs a value", name)
		}
		*i++
		return args[*i], nil
	}
}

// scenarioOverride turns --seed N and --set field=value, which run and shot
// share, into an override; handled is false for any other flag.
func scenarioOverride(name, v string) (ov override, handled bool, err error) {
	switch name {
	case "seed":
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return override{}, true, fmt.Errorf("--seed: want an integer, got %q", v)
		}
		return override{path: []step{{key: "seed"}}, value: json.Number(v)}, true, nil
	case "set":
		ov, err := parseSet(v)
		return ov, true, err
	}
	return override{}, false, nil
}
