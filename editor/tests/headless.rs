//! Without a display the editor plays `hexforge play mods/orbital-skirmish --bots
//! blue=greedy,red=random --games 20` headless, through the game crate's shared loop.

use std::path::Path;
use std::process::Command;

#[test]
fn without_a_display_the_editor_plays_twenty_games_as_hexforge_play_does() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new(env!("CARGO_BIN_EXE_hexforge-editor"))
        .current_dir(&repo)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("HEXFORGE_MODS_DIR", repo.join("target/no-user-mods"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stderr.contains("needs a display"), "{stderr}");
    assert!(
        stderr.contains("hexforge play mods/orbital-skirmish --bots blue=greedy,red=random"),
        "{stderr}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.first().copied(),
        Some(
            "20 games of orbital-skirmish (scenario duel, seeds 1..=20), \
             bots blue=greedy, red=random (others random)"
        ),
        "{stdout}"
    );
    // One line per side and one for draws, adding up to the 20 games.
    let count = |name: &str| -> u32 {
        let line = lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} line: {stdout}"));
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    assert_eq!(
        count("blue") + count("red") + count("draws"),
        20,
        "{stdout}"
    );
    assert!(
        lines.last().is_some_and(|l| l.ends_with("ms per game")),
        "{stdout}"
    );
}
