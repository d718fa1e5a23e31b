//! Hexforge game state (placeholder until the runtime lands).
