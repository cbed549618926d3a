//! The rules database (packs in `rules/`), its matching engine and seed-004 scoring.
