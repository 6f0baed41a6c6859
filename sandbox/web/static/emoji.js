// Slack's emoji shortcodes (the common ones, and every one the bot uses) as Unicode. An unknown :name:
// stays as typed, as Slack shows a custom emoji it cannot find.

export const EMOJI = {
  // what recount-bot sends
  white_check_mark: "\u2705", warning: "\u26A0\uFE0F", hourglass_flowing_sand: "\u23F3", hourglass: "\u231B",
  scales: "\u2696\uFE0F", no_entry_sign: "\u{1F6AB}", no_entry: "\u26D4", ballot_box_with_ballot: "\u{1F5F3}\uFE0F",
  ballot_box_with_check: "\u2611\uFE0F", scroll: "\u{1F4DC}", rotating_light: "\u{1F6A8}", pencil2: "\u270F\uFE0F",
  pencil: "\u{1F4DD}", memo: "\u{1F4DD}", moneybag: "\u{1F4B0}", information_source: "\u2139\uFE0F",
  file_folder: "\u{1F4C1}", open_file_folder: "\u{1F4C2}", envelope: "\u2709\uFE0F", incoming_envelope: "\u{1F4E8}",
  email: "\u{1F4E7}", calendar: "\u{1F4C6}", date: "\u{1F4C5}", spiral_calendar_pad: "\u{1F5D3}\uFE0F",
  alarm_clock: "\u23F0", x: "\u274C", link: "\u{1F517}", game_die: "\u{1F3B2}", checkered_flag: "\u{1F3C1}",
  arrow_forward: "\u25B6\uFE0F", abacus: "\u{1F9EE}", clipboard: "\u{1F4CB}", bookmark_tabs: "\u{1F4D1}",
  page_facing_up: "\u{1F4C4}", page_with_curl: "\u{1F4C3}", receipt: "\u{1F9FE}", bank: "\u{1F3E6}",
  dollar: "\u{1F4B5}", heavy_dollar_sign: "\u{1F4B2}", money_with_wings: "\u{1F4B8}", lock: "\u{1F512}",
  unlock: "\u{1F513}", key: "\u{1F511}", bell: "\u{1F514}", no_bell: "\u{1F515}", mag: "\u{1F50D}",
  bar_chart: "\u{1F4CA}", chart_with_upwards_trend: "\u{1F4C8}", pushpin: "\u{1F4CC}", paperclip: "\u{1F4CE}",
  stopwatch: "\u23F1\uFE0F", timer_clock: "\u23F2\uFE0F", clock1: "\u{1F550}", watch: "\u231A",
  // marks and arrows
  heavy_check_mark: "\u2714\uFE0F", heavy_multiplication_x: "\u2716\uFE0F", ballot_box: "\u{1F5F3}\uFE0F",
  exclamation: "\u2757", heavy_exclamation_mark: "\u2757", question: "\u2753", grey_question: "\u2754",
  bangbang: "\u203C\uFE0F", interrobang: "\u2049\uFE0F", arrow_right: "\u27A1\uFE0F", arrow_left: "\u2B05\uFE0F",
  arrow_up: "\u2B06\uFE0F", arrow_down: "\u2B07\uFE0F", arrows_counterclockwise: "\u{1F504}",
  repeat: "\u{1F501}", leftwards_arrow_with_hook: "\u21A9\uFE0F", heavy_plus_sign: "\u2795",
  heavy_minus_sign: "\u2796", red_circle: "\u{1F534}", large_green_circle: "\u{1F7E2}",
  large_yellow_circle: "\u{1F7E1}", large_blue_circle: "\u{1F535}", white_circle: "\u26AA", black_circle: "\u26AB",
  large_orange_diamond: "\u{1F536}", small_blue_diamond: "\u{1F539}", small_orange_diamond: "\u{1F538}",
  star: "\u2B50", sparkles: "\u2728", zap: "\u26A1", fire: "\u{1F525}", boom: "\u{1F4A5}", sos: "\u{1F198}",
  new: "\u{1F195}", ok: "\u{1F197}", free: "\u{1F193}", stop_sign: "\u{1F6D1}", construction: "\u{1F6A7}",
  // people and faces
  tada: "\u{1F389}", wave: "\u{1F44B}", thumbsup: "\u{1F44D}", "+1": "\u{1F44D}", thumbsdown: "\u{1F44E}",
  "-1": "\u{1F44E}", clap: "\u{1F44F}", raised_hands: "\u{1F64C}", pray: "\u{1F64F}", eyes: "\u{1F440}",
  point_right: "\u{1F449}", point_left: "\u{1F448}", point_up: "\u261D\uFE0F", point_down: "\u{1F447}",
  ok_hand: "\u{1F44C}", muscle: "\u{1F4AA}", smile: "\u{1F604}", smiley: "\u{1F603}", grinning: "\u{1F600}",
  slightly_smiling_face: "\u{1F642}", wink: "\u{1F609}", thinking_face: "\u{1F914}", neutral_face: "\u{1F610}",
  confused: "\u{1F615}", cry: "\u{1F622}", joy: "\u{1F602}", sweat_smile: "\u{1F605}", scream: "\u{1F631}",
  robot_face: "\u{1F916}", bust_in_silhouette: "\u{1F464}", busts_in_silhouette: "\u{1F465}",
  male_office_worker: "\u{1F468}\u200D\u{1F4BC}", female_office_worker: "\u{1F469}\u200D\u{1F4BC}",
  judge: "\u{1F9D1}\u200D\u2696\uFE0F", heart: "\u2764\uFE0F", 100: "\u{1F4AF}",
  // places and things
  house: "\u{1F3E0}", office: "\u{1F3E2}", classical_building: "\u{1F3DB}\uFE0F", us: "\u{1F1FA}\u{1F1F8}",
  flag_us: "\u{1F1FA}\u{1F1F8}", mailbox: "\u{1F4EB}", inbox_tray: "\u{1F4E5}", outbox_tray: "\u{1F4E4}",
  package: "\u{1F4E6}", books: "\u{1F4DA}", book: "\u{1F4D6}", newspaper: "\u{1F4F0}", computer: "\u{1F4BB}",
  printer: "\u{1F5A8}\uFE0F", telephone_receiver: "\u{1F4DE}", phone: "\u260E\uFE0F", hammer: "\u{1F528}",
  wrench: "\u{1F527}", gear: "\u2699\uFE0F", bulb: "\u{1F4A1}", trophy: "\u{1F3C6}", medal: "\u{1F3C5}",
  sunny: "\u2600\uFE0F", cloud: "\u2601\uFE0F", snowflake: "\u2744\uFE0F", mountain: "\u26F0\uFE0F",
  droplet: "\u{1F4A7}", potable_water: "\u{1F6B0}", fire_engine: "\u{1F692}", books_stack: "\u{1F4DA}",
  speech_balloon: "\u{1F4AC}", thought_balloon: "\u{1F4AD}", loudspeaker: "\u{1F4E2}", mega: "\u{1F4E3}",
  eye: "\u{1F441}\uFE0F", hourglass_done: "\u231B", pencil_and_paper: "\u{1F4DD}", spiral_note_pad: "\u{1F5D2}\uFE0F",
  card_index: "\u{1F4C7}", card_file_box: "\u{1F5C3}\uFE0F", file_cabinet: "\u{1F5C4}\uFE0F",
  wastebasket: "\u{1F5D1}\uFE0F", triangular_flag_on_post: "\u{1F6A9}", white_flag: "\u{1F3F3}\uFE0F",
  black_flag: "\u{1F3F4}", hash: "#\uFE0F\u20E3", one: "1\uFE0F\u20E3", two: "2\uFE0F\u20E3", three: "3\uFE0F\u20E3",
};

export function emoji(name) {
  const found = EMOJI[String(name).toLowerCase()];
  return found === undefined ? null : found;
}
