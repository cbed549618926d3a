//! Change sets (seed 003).
