//! The one place that maps the public [`Language`] choice to a guest crate's
//! [`codemode_guest::Language`]. Each guest is an optional dependency behind a cargo feature
//! (`lua`, `js`); a language whose feature is off is a [`crate::BuildError::UnsupportedLanguage`].

use crate::runtime::Language;

/// The guest for `language`, when its crate is compiled in.
pub(crate) fn frontend(language: Language) -> Option<&'static dyn codemode_guest::Language> {
    match language {
        #[cfg(feature = "lua")]
        Language::Lua => Some(&codemode_lua::Lua),
        #[cfg(feature = "js")]
        Language::JavaScript => Some(&codemode_js::JavaScript),
        #[allow(unreachable_patterns)]
        _ => None,
    }
}
