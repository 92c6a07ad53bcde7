/* kradan serve: the game families ratings are kept in (kradan.web.accounts.FAMILIES), with
 * their names, for the account and leaderboard pages. */
import { N_ } from './words.js';

export const FAMILIES = [
  ['makruk', N_('Makruk')],
  ['ouk', N_('Ouk Chatrang')],
  ['karouk', N_('Kar Ouk')],
  ['sittuyin', N_('Sittuyin')],
  ['alquerque', N_('Alquerque')],
];

/** A rating as shown: "1662", with "?" while it is provisional. */
export const ratingText = rating => `${Math.round(rating.rating)}${rating.provisional ? '?' : ''}`;
