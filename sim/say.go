package sim

import "strconv"

// Say is the Words of key with args given as name, value pairs: packages
// built on the simulator (the fault-schedule search) state their sentences
// with it, as the simulator does.
func Say(key string, args ...string) Words { return say(key, args...) }

// With adds a placeholder whose value is another sentence, said in the
// same language as the one around it.
func (w Words) With(name string, p Words) Words { return w.Part(name, p) }

// GroupThousands writes a count with a space between thousands (63 000),
// as the sentences of both languages show large figures.
func GroupThousands(n int) string {
	s := strconv.Itoa(n)
	start := 0
	if n < 0 {
		start = 1
	}
	for i := len(s) - 3; i > start; i -= 3 {
		s = s[:i] + " " + s[i:]
	}
	return s
}
