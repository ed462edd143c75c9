package app

import (
	"io/fs"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
	"github.com/jeandeaual/go-locale"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/assets/i18n"
)

// fyneLocale is the locale under which a language's words join Fyne's own
// translations. Fyne ships its Chinese as zh-Hans and, for a zh_CN system,
// keeps looking words up there: registered as plain "zh" (what
// lang.AddTranslationsFS makes of zh.json) ours would never be found, and
// every lookup would log a failure.
func fyneLocale(l i18n.Lang) fyne.Locale {
	if l == i18n.Chinese {
		return "zh-Hans"
	}
	return fyne.Locale(l)
}

var registerOnce sync.Once

// registerTranslations hands LockScope's words to Fyne's lang package too,
// so lang.L and lang.X know them in the system's language. The window
// itself looks words up through package i18n, whose language can change
// while it runs; Fyne's follows the system locale only (which is also why
// the few words Fyne draws itself, such as the buttons of its file
// dialogs, follow the system and not the language chosen here).
func registerTranslations() {
	registerOnce.Do(func() {
		for _, l := range i18n.Langs {
			b, err := fs.ReadFile(assets.Translations, assets.TranslationsDir+"/"+string(l)+".json")
			if err == nil {
				err = lang.AddTranslationsForLocale(b, fyneLocale(l))
			}
			if err != nil {
				fyne.LogError("adding the "+string(l)+" translations to Fyne", err)
			}
		}
	})
}

// SystemLanguage is the language of the system's locale: Chinese for zh-*,
// else English (also when the locale names no language, such as C).
func SystemLanguage() i18n.Lang {
	locs, err := locale.GetLocales()
	if err != nil || len(locs) == 0 {
		return i18n.English
	}
	return i18n.FromLocale(locs[0])
}

// startLanguage is the language the window opens in: the saved choice, or
// the system's on the first start.
func startLanguage(s Settings) i18n.Lang {
	if l, ok := s.Language(); ok {
		return l
	}
	return SystemLanguage()
}
