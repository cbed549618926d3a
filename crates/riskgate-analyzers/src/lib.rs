//! Analyzers for actions that are not shell commands: code (seed 001), SQL, change sets (seed 003).
