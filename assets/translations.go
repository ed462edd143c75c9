package assets

import "embed"

// The Chinese font subset follows the translations: regenerate it after
// adding Chinese text (see gen/font).
//go:generate go run ./gen/font

// Translations holds the word lists of every language the window speaks,
// translations/<lang>.json, in the format of Fyne's lang package: a JSON
// object from message key to text, with {{.name}} placeholders. Package
// assets/i18n looks words up in them; the window also hands them to
// lang.AddTranslationsFS.
//
//go:embed translations/*.json
var Translations embed.FS

// TranslationsDir is the directory of Translations that holds the files.
const TranslationsDir = "translations"
