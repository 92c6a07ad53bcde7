/* kradan serve: a game of the archive on the analysis board. /analysis?archive=<id> asks
 * GET /api/archive/{id} for the game and reads its PGN (its tags, its moves, the counts
 * declared) with POST /api/pgn/read, as the board's "Load PGN" does: the answer is the tree
 * the board starts from. */
import { request } from './api.js';

/** The tree (POST /api/pgn/read's answer) of archived game ``id``; throws an ApiError whose
 * message is the server's (an unknown game, a server out of reach). */
export async function readArchived(id) {
  const game = await request('GET', `/api/archive/${encodeURIComponent(id)}`);
  const tree = await request('POST', '/api/pgn/read', { pgn: game.pgn });
  return tree;
}
