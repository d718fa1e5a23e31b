//! Loader (placeholder).
/// x
pub struct LoadedMods;
/// x
pub fn load_mods() {}
