//! The question asked before a click ends a game in progress (another mod, scenario, new game
//! or demo): a misclick must not throw a game away.

/// Draws the question; `Some(true)` to end the game, `Some(false)` to keep playing, `None`
/// while unanswered.
pub fn end_game(ctx: &egui::Context) -> Option<bool> {
    let mut answer = None;
    egui::Window::new("End the running game?")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label("The game in progress will be closed and its actions dropped.");
            ui.horizontal(|ui| {
                if ui.button("End it").clicked() {
                    answer = Some(true);
                }
                if ui.button("Keep playing").clicked() {
                    answer = Some(false);
                }
            });
        });
    answer
}
