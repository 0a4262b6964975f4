// The round of test_generated_client.py seen through the TypeScript types openapi-typescript writes from
// /api/schema/ (./api.ts beside it once generated): `tsc --strict` checks that every body the round sends
// is what its operation takes (no field missing, none the server writes asked for) and that every answer it reads
// has the fields it reads, of the types it reads them as.
import type { operations } from "./api";

type Op = keyof operations;
type Content<O extends Op> = operations[O] extends { requestBody?: { content: infer C } } ? C : never;
/** The JSON body an operation takes. */
type Body<O extends Op> = Content<O> extends { "application/json": infer B } ? B : never;
/** An operation's JSON answer of status S. */
type Answer<O extends Op, S extends keyof operations[O]["responses"]> =
  operations[O]["responses"][S] extends { content: { "application/json": infer A } } ? A : never;

/** The media types an operation's body may have besides JSON: none, for every operation. */
type NotJson = { [O in Op]: Exclude<keyof Content<O>, "application/json"> }[Op];
export const jsonOnly: [NotJson] extends [never] ? true : never = true;

export const bodies = {
  token: { username: "alice", password: "correct horse battery" } satisfies Body<"arbiter_obtain_token">,
  player: { name: "Ada", club: "Club" } satisfies Body<"arbiter_register_player">,
  game: { prepared_racks: ["CATSROE", "OE+DRSZ?"] } satisfies Body<"arbiter_create_game">,
  draw: {} satisfies Body<"arbiter_draw_round">,
  login: { code: "K7Q2-9XW4" } satisfies Body<"tablet_login">,
  slip: { word: "CARTS", coordinates: "H4", score: 20, round: 1 } satisfies Body<"tablet_hand_in_slip">,
};

export const read = {
  token: (a: Answer<"arbiter_obtain_token", 200>): string => a.token,
  accessCode: (a: Answer<"arbiter_register_player", 201>): [number, string] => [a.table_number, a.access_code],
  game: (a: Answer<"arbiter_create_game", 201>): number => a.number,
  round: (a: Answer<"arbiter_draw_round", 201>): [number, string] => [a.id, a.rack],
  opened: (a: Answer<"arbiter_open_round", 200>): boolean => a.status === "open",
  tablet: (a: Answer<"tablet_login", 200>): [string, string] => [a.token, a.name],
  rack: (a: Answer<"tablet_get_state", 200>): string | null => (a.round === null ? null : a.round.rack),
  slip: (a: Answer<"tablet_hand_in_slip", 201>): [string, boolean] => [a.word, a.late],
  lateSlip: (a: Answer<"tablet_hand_in_slip", 409>): [string, string] => [a.code, a.detail],
  count: (a: Answer<"arbiter_count_slips", 200>): number[] => a.missing,
  published: (a: Answer<"arbiter_publish_round", 200>): [boolean, string | null] =>
    [a.status === "published", a.chosen_move],
  verdicts: (a: Answer<"arbiter_list_verdicts", 200>): [string, number][] => a.map((v) => [v.name, v.awarded]),
  standings: (a: Answer<"public_get_tournament_standings", 200>): [number, string, number][] =>
    a.rows.map((row) => [row.rank, row.name, row.total]),
};
