//! Declarations (placeholder).
/// x
#[derive(Debug, Default, Clone)]
pub struct ModDecls;
