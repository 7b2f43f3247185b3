// rules/ur.js — the Royal Game of Ur (Skiryuk's rules) for players, in en and
// ru (js/rules.js reads it; written from /work/shared/rules/royal-game-of-ur.md).
export default {
  defaults: { rules: 'skiryuk', pieces: '7', dice: '3lots', start: 'random', loop: 'own-first', stack: 'top' },
  ja: [
    { title: '目的', items: [
      '白と黒の2人が、盤上の道に沿って駒を進め、端から盤の外へ上げる競走です。',
      { opt: 'pieces', text: '1人の駒の数：{v}（正式は7個）。先に全部の駒を上げた人の勝ち。' },
    ] },
    { title: '手番', items: [
      { opt: 'dice', v: { '3lots': '投げ棒を3本投げる。印の出た本数が進む数で、印なしは4。1と2がよく出て、3と4はまれ。', d4: '四面さいころを1個振る。1〜4がどれも同じ確率。' } },
      '駒を1個、出目ちょうどだけ進めるか、新しい駒を盤に入れる（出目1なら1マス目、4なら4マス目）。',
      '動かせる手があれば必ず動かす。なければ番が移る。',
      { opt: 'start', v: { random: '先手は抽選。先手の最初の出目は1。', light: '白が先手で、最初の出目は1。', dark: '黒が先手で、最初の出目は1。' } },
    ] },
    { title: '道とマス', items: [
      '駒は自分の側から入り、中央の列を進み、奥の小ブロックを回って、また中央の列を通ってゴールへ向かう。',
      '駒は無地の面を上にして入り、小ブロックの中央のマスに着くか通り過ぎると裏返る（印の面）。',
      { opt: 'loop', v: { 'own-first': '小ブロックの目のマスの後、駒はまず自分の側へ曲がる。', 'opponent-first': '小ブロックの目のマスの後、駒はまず相手の側へ曲がる。' } },
      'ロゼット：止まるともう一度投げられる。駒を守る効果はない。',
      '自分の側の目：自分の置き場。自分の駒を4個まで重ねられ、ほかの人は止まれない。',
      '小ブロックの目：最初に来た駒の持ち主のものになる（4個まで）。空くまで相手は止まれない。',
      '安全マス（点4つ）：どちらの駒でも4個まで重ねられ、取られない。',
      { opt: 'stack', v: { top: '重なりから動かせるのは一番上の駒だけ。', any: '重なりのどの駒でも動かせる。' } },
    ] },
    { title: '駒を取る', items: [
      '同じ面（無地と無地、印と印）の相手の駒が1個だけいるマスに止まると、その駒は無地の面に戻って持ち主の控えへ。',
      '無地の駒と印の駒は互いに取れず、同じマスに止まれない。',
      'ゴールのマス：印の駒は取られないが、無地の駒は相手の無地の駒に取られる。',
    ] },
    { title: '終わり', items: [
      '駒は最後の4マスからちょうどの出目でだけ盤を出られる（最後から4マス目なら4、…最後のマスなら1）。',
      '先に全部の駒を上げた人の勝ち。',
      { opt: 'rules', v: { finkel: 'この部屋はフィンケル式：投げ棒4本（印なしは動けない）、短い道（自分の側4マス、中央8マス、自分の側2マス）、中央のロゼットは安全、白が先手。' } },
    ] },
  ],
  en: [
    { title: 'Goal', items: [
      'Two players, Light and Dark, race their pieces along a path across the board and off its end.',
      { opt: 'pieces', text: 'Pieces for each player: {v} (7 in the full game). The first to take every piece off the board wins.' },
    ] },
    { title: 'A turn', items: [
      { opt: 'dice', v: { '3lots': 'Throw three lots: the number of marked ones is your move, and none marked counts 4. So 1 and 2 come often, 3 and 4 rarely.', d4: 'Throw one four-sided die: 1 to 4, each as likely.' } },
      'Move one piece forward by exactly that number, or bring a new piece onto the board (a throw of 1 puts it on the first square, 4 on the fourth).',
      'If a move is possible you must make one; if none is, the turn passes.',
      { opt: 'start', v: { random: 'Who starts is drawn at random; the starter’s first throw is a 1.', light: 'Light starts, with a first throw of 1.', dark: 'Dark starts, with a first throw of 1.' } },
    ] },
    { title: 'The path and the squares', items: [
      'Your pieces enter on your own side, run down the middle row, loop round the small block at the far end and come back down the middle row to the exit.',
      'A piece enters blank side up and turns over (marked) when it reaches or passes the centre square of the small block.',
      { opt: 'loop', v: { 'own-first': 'After the small block’s eyes square, a piece turns first towards your own side.', 'opponent-first': 'After the small block’s eyes square, a piece turns first towards your opponent’s side.' } },
      'Rosette: landing on one gives you another throw. It does not protect the piece.',
      'Eyes on your own side: your depot, up to 4 of your pieces stacked; nobody else can land there.',
      'Eyes in the small block: the first piece there claims it for its owner (up to 4 of theirs); the other player cannot land there until it is empty.',
      'Safe squares (four dots): up to 4 pieces of either player, stacked; no captures there.',
      { opt: 'stack', v: { top: 'Only the top piece of a stack may move.', any: 'Any piece of a stack may move.' } },
    ] },
    { title: 'Captures', items: [
      'Land on a single enemy piece that shows the same side as yours (blank on blank, marked on marked) and it goes back to its owner’s reserve, blank side up.',
      'A blank piece and a marked piece never capture each other and may not land on each other.',
      'The exit square: a marked piece there cannot be captured; a blank one can be, by an enemy blank.',
    ] },
    { title: 'The end', items: [
      'A piece leaves the board only with the exact throw from the last four squares (4 from the fourth from the end, … 1 from the last).',
      'The first player with every piece off the board wins.',
      { opt: 'rules', v: { finkel: 'This room plays Finkel’s rules instead: four lots (none marked is no move), a shorter path of four own squares, the eight middle squares and two own squares; the middle rosette is safe; Light starts.' } },
    ] },
  ],
  ru: [
    { title: 'Цель', items: [
      'Двое, Светлые и Тёмные, ведут свои фишки по пути через доску и снимают их с неё.',
      { opt: 'pieces', text: 'Фишек у каждого: {v} (в полной игре 7). Побеждает тот, кто первым снимет с доски все свои фишки.' },
    ] },
    { title: 'Ход', items: [
      { opt: 'dice', v: { '3lots': 'Бросьте три жребия: число отмеченных — это ваш ход, а ни одного отмеченного считается за 4. Поэтому 1 и 2 выпадают часто, 3 и 4 — редко.', d4: 'Бросьте один четырёхгранный кубик: от 1 до 4, все одинаково вероятны.' } },
      'Передвиньте одну фишку вперёд ровно на это число или выставьте новую фишку (с 1 — на первое поле, с 4 — на четвёртое).',
      'Если ход возможен, его нужно сделать; если нет — ход переходит к сопернику.',
      { opt: 'start', v: { random: 'Кто начинает, решает жребий; первый бросок начинающего — 1.', light: 'Начинают Светлые, их первый бросок — 1.', dark: 'Начинают Тёмные, их первый бросок — 1.' } },
    ] },
    { title: 'Путь и поля', items: [
      'Фишки входят на своей стороне, идут по среднему ряду, обходят малый блок в дальнем конце и возвращаются по среднему ряду к выходу.',
      'Фишка входит пустой стороной вверх и переворачивается (становится отмеченной), когда доходит до центрального поля малого блока или проходит его.',
      { opt: 'loop', v: { 'own-first': 'После поля с глазами в малом блоке фишка сначала поворачивает к своей стороне.', 'opponent-first': 'После поля с глазами в малом блоке фишка сначала поворачивает к стороне соперника.' } },
      'Розетка: кто встал на неё, бросает ещё раз. Фишку на розетке это не защищает.',
      'Глаза на своей стороне — ваш склад: до 4 ваших фишек стопкой; чужие туда не встают.',
      'Глаза в малом блоке: первая фишка занимает их для своего хозяина (до 4 его фишек); другой не может туда встать, пока поле не опустеет.',
      'Безопасные поля (четыре точки): до 4 фишек любого игрока стопкой; взятий там нет.',
      { opt: 'stack', v: { top: 'Ходить можно только верхней фишкой стопки.', any: 'Ходить можно любой фишкой стопки.' } },
    ] },
    { title: 'Взятия', items: [
      'Встаньте на одиночную фишку соперника той же стороной вверх (пустая на пустую, отмеченная на отмеченную) — она вернётся к хозяину в запас пустой стороной вверх.',
      'Пустая и отмеченная фишки никогда не берут друг друга и не встают друг на друга.',
      'Поле выхода: отмеченную фишку там взять нельзя, пустую может взять пустая фишка соперника.',
    ] },
    { title: 'Конец игры', items: [
      'Фишка покидает доску только точным броском с последних четырёх полей (4 — с четвёртого от конца, … 1 — с последнего).',
      'Побеждает тот, кто первым снял с доски все фишки.',
      { opt: 'rules', v: { finkel: 'В этой комнате играют по правилам Финкеля: четыре жребия (ни одного отмеченного — хода нет), короткий путь — четыре своих поля, восемь средних и два своих; средняя розетка безопасна; начинают Светлые.' } },
    ] },
  ],
  vi: [
    { title: 'Mục tiêu', items: [
      'Hai người chơi, Trắng và Đen, đua quân của mình theo một đường đi qua bàn cờ rồi ra khỏi bàn ở cuối đường.',
      { opt: 'pieces', text: 'Số quân mỗi bên: {v} (7 trong ván đầy đủ). Ai đưa hết quân ra khỏi bàn trước thì thắng.' },
    ] },
    { title: 'Một lượt', items: [
      { opt: 'dice', v: { '3lots': 'Gieo ba thẻ: số thẻ có dấu là số bước đi, không thẻ nào có dấu tính là 4. Vì vậy 1 và 2 hay ra, 3 và 4 hiếm.', d4: 'Gieo một xúc xắc bốn mặt: từ 1 đến 4, khả năng như nhau.' } },
      'Đi một quân tiến lên đúng số bước đó, hoặc đưa một quân mới vào bàn (gieo được 1 thì vào ô thứ nhất, được 4 thì vào ô thứ tư).',
      'Nếu có nước đi được thì bắt buộc phải đi; nếu không có thì mất lượt.',
      { opt: 'start', v: { random: 'Bốc thăm xem ai đi trước; lần gieo đầu của người đi trước được tính là 1.', light: 'Trắng đi trước, lần gieo đầu được tính là 1.', dark: 'Đen đi trước, lần gieo đầu được tính là 1.' } },
    ] },
    { title: 'Đường đi và các ô', items: [
      'Quân của bạn vào bàn ở phía bên mình, chạy dọc hàng giữa, vòng quanh khối nhỏ ở đầu xa rồi quay lại theo hàng giữa đến lối ra.',
      'Quân vào bàn với mặt trơn ngửa lên và lật sang mặt có dấu khi đến hoặc đi qua ô giữa của khối nhỏ.',
      { opt: 'loop', v: { 'own-first': 'Qua ô mắt của khối nhỏ, quân rẽ về phía bên mình trước.', 'opponent-first': 'Qua ô mắt của khối nhỏ, quân rẽ về phía đối phương trước.' } },
      'Ô hoa thị: dừng ở đó thì được gieo thêm một lần. Ô này không bảo vệ quân.',
      'Ô mắt phía bên mình: kho của bạn, chồng được tối đa 4 quân của bạn; không ai khác được vào.',
      'Ô mắt trong khối nhỏ: quân đầu tiên vào đó giành ô cho chủ của nó (tối đa 4 quân của người đó); người kia không được vào cho đến khi ô trống.',
      'Ô an toàn (bốn chấm): chồng được tối đa 4 quân của cả hai bên; ở đó không được ăn quân.',
      { opt: 'stack', v: { top: 'Chỉ quân trên cùng của một chồng được đi.', any: 'Quân nào trong chồng cũng được đi.' } },
    ] },
    { title: 'Ăn quân', items: [
      'Dừng vào ô có một quân đối phương cùng mặt với quân mình (trơn gặp trơn, có dấu gặp có dấu) thì quân đó về lại dự trữ của chủ nó, mặt trơn ngửa lên.',
      'Quân mặt trơn và quân mặt có dấu không bao giờ ăn nhau và không được dừng vào ô của nhau.',
      'Ô lối ra: quân có dấu ở đó không bị ăn; quân mặt trơn thì có thể bị quân trơn của đối phương ăn.',
    ] },
    { title: 'Kết thúc', items: [
      'Quân chỉ ra khỏi bàn khi gieo đúng số từ bốn ô cuối (được 4 từ ô thứ tư tính từ cuối, … được 1 từ ô cuối cùng).',
      'Ai đưa hết quân ra khỏi bàn trước thì thắng.',
      { opt: 'rules', v: { finkel: 'Phòng này chơi theo luật của Finkel: bốn thẻ (không thẻ nào có dấu thì không được đi), đường đi ngắn hơn gồm bốn ô bên mình, tám ô giữa và hai ô bên mình; ô hoa thị giữa là ô an toàn; Trắng đi trước.' } },
    ] },
  ],
};
