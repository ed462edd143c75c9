package i18n

import (
	"testing"
	"testing/fstest"
	"text/template"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBundledTranslationsLoad(t *testing.T) {
	require.NoError(t, LoadError())
	for _, l := range Langs {
		assert.NotEmpty(t, Keys(l), "%s has no words", l)
	}
}

// Every key exists in every language: a word added in one file and not the
// other would show in English on a Chinese screen (or the reverse).
func TestEveryKeyInEveryLanguage(t *testing.T) {
	for _, l := range Langs {
		for _, other := range Langs {
			if l == other {
				continue
			}
			for _, k := range Keys(l) {
				assert.True(t, Has(other, k), "%q is in %s.json but not in %s.json", k, l, other)
			}
		}
	}
}

// The placeholders of a key are the same in every language, so a
// translation can move them but never drop or invent one.
func TestPlaceholdersAgree(t *testing.T) {
	for _, k := range Keys(English) {
		want := map[string]bool{}
		for _, p := range Placeholders(English, k) {
			want[p] = true
		}
		for _, l := range Langs[1:] {
			got := map[string]bool{}
			for _, p := range Placeholders(l, k) {
				got[p] = true
			}
			assert.Equal(t, want, got, "placeholders of %q in %s", k, l)
		}
	}
}

// The files stay readable by Fyne's lang (go-i18n), which runs every text
// through text/template, and no text is empty or padded by mistake.
func TestTextsAreTemplates(t *testing.T) {
	for _, l := range Langs {
		for _, k := range Keys(l) {
			s := In(l, k)
			_, err := template.New(k).Parse(s)
			assert.NoError(t, err, "%s %q", l, k)
			assert.NotEmpty(t, s, "%s %q is empty", l, k)
		}
	}
}

func TestFromLocale(t *testing.T) {
	for _, tc := range []struct {
		locale string
		want   Lang
	}{
		{"zh_CN.UTF-8", Chinese},
		{"zh-CN", Chinese},
		{"zh_TW.UTF-8", Chinese},
		{"zh-Hans", Chinese},
		{"zh", Chinese},
		{"en_US.UTF-8", English},
		{"de_DE@euro", English},
		{"fr-FR", English},
		{"C", English},
		{"C.UTF-8", English},
		{"POSIX", English},
		{"", English},
		{"not a locale", English},
	} {
		assert.Equal(t, tc.want, FromLocale(tc.locale), tc.locale)
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Lang
		ok   bool
	}{
		{"zh", Chinese, true},
		{"zh_CN.UTF-8", Chinese, true},
		{"en", English, true},
		{"en-GB", English, true},
		{"fr", English, false},
		{"", English, false},
		{"xx-??", English, false},
	} {
		got, ok := Parse(tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
	}
}

func TestSetSwitchesEveryLookup(t *testing.T) {
	defer Set(Current())
	Set(English)
	require.Equal(t, English, Current())
	en := T("lang.label")
	assert.True(t, Set(Chinese), "a new language is a change")
	assert.False(t, Set(Chinese), "the same language is not")
	assert.Equal(t, In(Chinese, "lang.label"), T("lang.label"))
	assert.NotEqual(t, en, T("lang.label"))
	Set("xx")
	assert.Equal(t, English, Current(), "an unknown language falls back to English")
}

func TestLookupFallsBack(t *testing.T) {
	fsys := fstest.MapFS{
		"t/en.json": {Data: []byte(`{"a": "A {{.x}} and {{.y}}", "b": "B"}`)},
		"t/zh.json": {Data: []byte(`{"a": "甲{{.y}}{{.x}}"}`)},
	}
	tables, err := Load(fsys, "t")
	require.NoError(t, err)
	old := loaded
	loaded = tables
	defer func() { loaded = old }()

	assert.Equal(t, "A 1 and 2", Fin(English, "a", "x", 1, "y", "2"))
	assert.Equal(t, "甲21", Fin(Chinese, "a", "x", 1, "y", "2"))
	assert.Equal(t, "B", In(Chinese, "b"), "a key Chinese lacks is English")
	assert.Equal(t, "nope", In(Chinese, "nope"), "a key no language has is itself")
	assert.Equal(t, "A 1 and {{.y}}", Fin(English, "a", "x", 1), "a missing argument shows")
}

func TestLoadNamesTheBrokenText(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"a": "{{.x"}`, `en.json: "a": unclosed {{`},
		{`{"a": "{{range .x}}"}`, `en.json: "a": placeholder {{range .x}}`},
		{`{"a": 1}`, `en.json: json`},
	} {
		_, err := Load(fstest.MapFS{"t/en.json": {Data: []byte(tc.data)}}, "t")
		require.Error(t, err, tc.data)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestNamesAreEndonyms(t *testing.T) {
	assert.Equal(t, "English", English.Name())
	assert.Equal(t, "简体中文", Chinese.Name())
}
