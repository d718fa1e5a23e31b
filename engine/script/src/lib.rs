//! Hexforge Lua runtime (placeholder until the runtime lands).
