// The one entry point of kradan's board bundle: what app.js uses from chessgroundx, exposed as
// the global `KradanBoard` (see build.mjs). Our own client code (static/app.js) is not bundled.
export { Chessground } from 'chessgroundx/chessground';
export { Notation } from 'chessgroundx/types';
export { premove } from 'chessgroundx/premove';
export { predrop } from 'chessgroundx/predrop';
