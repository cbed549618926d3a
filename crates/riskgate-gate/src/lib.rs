//! The gate: layered policy, decisions, approvals store, session cache, prompt, audit log.
