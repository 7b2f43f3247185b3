// rules/tamcuc.js — Tam Cúc for players, in en and ru (js/rules.js reads it;
// written from /work/shared/rules/tam-cuc.md).
export default {
  defaults: { players: '4', soldier_special: 'seize', first_trick_ban: 'auto', ket_bonus: 'on', overtake: 'on', night_exchange: 'off', session_end: 'deals:1', big_soldier_leads: 'on', two_p_score: 'difference' },
  ja: [
    { title: '札', items: [
      '赤と黒の2色32枚。象棋の駒を描き、各色に将1枚、士2枚、象2枚、車2枚、砲2枚、馬2枚、卒5枚。',
      '強い順に将、士、象、車、砲、馬、卒。同じ駒なら赤のほうが強い。',
      'リードできる組：1枚。ペア（同じ色の同じ札2枚）。同じ色の3枚組（将・士・象、またはそれより弱い車・砲・馬）。同じ色の卒4枚か5枚。',
    ] },
    { title: '目的', items: [
      'トリックを取る。取ったトリックの自分の札は自分の山に入る。取った札が多いほど得点が高い。',
      { opt: 'players', v: { 4: '4人、1人8枚。', 3: '3人、1人9枚か10枚（デッキから何枚か抜く）。', 2: '2人、1人16枚。相手に配られた札は推理できる。' } },
    ] },
    { title: 'トリック', items: [
      'リードする人が組を伏せて出し、枚数を言う。',
      'ほかの人は順に、リードを見ないで同じ枚数を伏せて出す。',
      'リードが表になる。次に各自が順に、自分の札を見せるか伏せたままにする。見せなくてもよい。',
      'リードと同じ種類の組で一番強いものが勝つ。同じ強さなら先に出した人（リードした人が最優先）。見せなかった札はずっと秘密のまま。',
      '勝った人はそのトリックの自分の札を取り、次にリードする。順番は右回り（反時計回り）。',
    ] },
    { title: '特別なルール', items: [
      { opt: 'first_trick_ban', v: { auto: '最初のトリック：将と士（3人なら象も）はリードできず、これらの札では勝てない。', none: '最初のトリック：禁止札はない。', g_a: '最初のトリック：将と士はリードできず、これらの札では勝てない。', g_a_e: '最初のトリック：将、士、象はリードできず、これらの札では勝てない。', g_a_e_bs: '最初のトリック：将、士、象、黒の卒はリードできず、これらの札では勝てない。' } },
      { opt: 'soldier_special', v: {
        seize: '同じ色の卒5枚は対局前に宣言でき、宣言した人が最初にリードする。卒4枚を宣言したら、すぐ追加トリックとしてリードする。黒の宣言には赤の組で対抗できる。',
        autowin: '同じ色の卒4枚か5枚は対局前に宣言でき、全員が宣言した人に2（4枚）か3（5枚）を払う。黒の宣言は赤の組で奪える。',
        none: '卒4枚・5枚はリードできる組というだけで、対局前の宣言はない。' } },
      { opt: 'night_exchange', v: { off: null }, text: '配札の後、全員が{v}枚を伏せたまま次の人に渡す。' },
    ] },
    { title: '終わりと得点', items: [
      '手札がなくなると局が終わる。得点は取った札の数から標準の取り分（4人なら2、3人なら3）を引いたもの。',
      { opt: 'two_p_score', when: { players: '2' }, v: { difference: '2人：自分と相手の取った札の差。', half: '2人：取った札から8を引く。' } },
      { opt: 'ket_bonus', v: { on: '最後のトリックを自分のリードで取ると、ほかの全員からボーナス：車・砲・馬のペアなら2、車・砲・馬の3枚組か黒の卒のペアなら3。', off: '最後のトリックのボーナスはない。' } },
      { opt: 'overtake', v: { on: '最後のリードが黒の卒で、誰かが赤の組でそれに勝つと、リードした人が3を払う。', off: null } },
      { opt: 'session_end', v: { 'deals:1': '1局だけ遊ぶ。', deals: '{n}局遊び、得点を合計する。', target: '誰かの合計が{n}に届くまで局を続ける。' } },
    ] },
  ],
  en: [
    { title: 'The cards', items: [
      '32 cards in two colours, red and black, with the pieces of Chinese chess: per colour 1 General, 2 Advisors, 2 Elephants, 2 Chariots, 2 Cannons, 2 Horses and 5 Soldiers.',
      'From high to low: General, Advisor, Elephant, Chariot, Cannon, Horse, Soldier; of two equal pieces the red one is higher.',
      'Sets you can lead: one card; a pair (two equal cards of one colour); a triple of one colour (General–Advisor–Elephant, or the lower Chariot–Cannon–Horse); four or five Soldiers of one colour.',
    ] },
    { title: 'Goal', items: [
      'Win tricks: each trick you win puts your own cards of it on your pile. The more cards you win, the better you score.',
      { opt: 'players', v: { 4: 'Four players, 8 cards each.', 3: 'Three players, 9 or 10 cards each (some cards are left out of the deck).', 2: 'Two players, 16 cards each; each can work out what the other was dealt.' } },
    ] },
    { title: 'A trick', items: [
      'The leader lays a set face down and says how many cards it has.',
      'Everyone else in turn lays the same number of cards face down, without seeing the lead.',
      'The lead is turned up. Then each player in turn either shows their cards or keeps them hidden. Showing is never required.',
      'The highest shown set of the same kind as the lead wins; on a tie the earlier player (the leader first). Cards that were not shown stay secret for ever.',
      'The winner takes their own cards of the trick and leads next. Play turns to the right (counter-clockwise).',
    ] },
    { title: 'Special cases', items: [
      { opt: 'first_trick_ban', v: { auto: 'First trick: the leader may not lead a General or an Advisor (with three players, nor an Elephant), and such cards cannot win it.', none: 'First trick: no cards are banned.', g_a: 'First trick: no General or Advisor may be led, and such cards cannot win it.', g_a_e: 'First trick: no General, Advisor or Elephant may be led, and such cards cannot win it.', g_a_e_bs: 'First trick: no General, Advisor, Elephant or black Soldier may be led, and such cards cannot win it.' } },
      { opt: 'soldier_special', v: {
        seize: 'Five Soldiers of one colour may be declared before play: the declarer takes the first lead. Four Soldiers declared are led at once as an extra trick. A black declaration can be answered with the red set.',
        autowin: 'Four or Five Soldiers of one colour may be declared before play: everyone pays the declarer 2 (Four) or 3 (Five). A black declaration can be taken over with the red set.',
        none: 'Four and Five Soldiers are only sets to lead, with nothing declared before play.' } },
      { opt: 'night_exchange', v: { off: null }, text: 'After the deal everyone passes {v} cards face down to the next player.' },
    ] },
    { title: 'The end and the score', items: [
      'The deal ends when the hands are empty. Your score is the cards you won, less the fair share (2 with four players, 3 with three).',
      { opt: 'two_p_score', when: { players: '2' }, v: { difference: 'Two players: the difference between your cards and the other’s.', half: 'Two players: your cards less 8.' } },
      { opt: 'ket_bonus', v: { on: 'Winning the last trick with its lead pays a bonus from each other player: 2 for a pair of Chariots, Cannons or Horses, 3 for a Chariot–Cannon–Horse triple or a pair of black Soldiers.', off: 'No bonus for the last trick.' } },
      { opt: 'overtake', v: { on: 'If the last lead is black Soldiers and a player beats it with the red set, the leader pays 3.', off: null } },
      { opt: 'session_end', v: { 'deals:1': 'One deal is played.', deals: 'Deals played: {n}; the scores add up.', target: 'Deals are played until someone’s total reaches {n}.' } },
    ] },
  ],
  ru: [
    { title: 'Карты', items: [
      '32 карты двух цветов, красного и чёрного, с фигурами китайских шахмат: в каждом цвете 1 генерал, 2 советника, 2 слона, 2 колесницы, 2 пушки, 2 коня и 5 солдат.',
      'От старшей к младшей: генерал, советник, слон, колесница, пушка, конь, солдат; из двух одинаковых фигур старше красная.',
      'Наборы для захода: одна карта; пара (две одинаковые карты одного цвета); тройка одного цвета (генерал–советник–слон или младшая колесница–пушка–конь); четыре или пять солдат одного цвета.',
    ] },
    { title: 'Цель', items: [
      'Брать взятки: за каждую выигранную взятку ваши карты из неё идут в вашу стопку. Чем больше карт вы взяли, тем выше счёт.',
      { opt: 'players', v: { 4: 'Четыре игрока, по 8 карт.', 3: 'Три игрока, по 9 или 10 карт (часть карт убирают из колоды).', 2: 'Два игрока, по 16 карт; каждый может вычислить, что сдано другому.' } },
    ] },
    { title: 'Взятка', items: [
      'Заходящий кладёт набор рубашкой вверх и говорит, сколько в нём карт.',
      'Остальные по очереди кладут столько же карт рубашкой вверх, не видя захода.',
      'Заход открывают. Затем каждый по очереди открывает свои карты или оставляет их закрытыми. Открывать не обязательно.',
      'Выигрывает старший открытый набор того же вида, что заход; при равенстве — кто раньше (заходящий первый). Неоткрытые карты остаются тайной навсегда.',
      'Победитель забирает свои карты взятки и заходит следующим. Ход идёт направо (против часовой стрелки).',
    ] },
    { title: 'Особые случаи', items: [
      { opt: 'first_trick_ban', v: { auto: 'Первая взятка: нельзя заходить генералом или советником (втроём — и слоном), и такие карты не могут её выиграть.', none: 'Первая взятка: запретных карт нет.', g_a: 'Первая взятка: нельзя заходить генералом или советником, и такие карты не могут её выиграть.', g_a_e: 'Первая взятка: нельзя заходить генералом, советником или слоном, и такие карты не могут её выиграть.', g_a_e_bs: 'Первая взятка: нельзя заходить генералом, советником, слоном или чёрным солдатом, и такие карты не могут её выиграть.' } },
      { opt: 'soldier_special', v: {
        seize: 'Пять солдат одного цвета можно объявить до игры: объявивший заходит первым. Объявленные четыре солдата сразу разыгрываются отдельной взяткой. На чёрное объявление можно ответить красным набором.',
        autowin: 'Четыре или пять солдат одного цвета можно объявить до игры: каждый платит объявившему 2 (четыре) или 3 (пять). Чёрное объявление можно перехватить красным набором.',
        none: 'Четыре и пять солдат — просто наборы для захода, до игры ничего не объявляют.' } },
      { opt: 'night_exchange', v: { off: null }, text: 'После сдачи каждый передаёт следующему игроку рубашкой вверх столько карт: {v}.' },
    ] },
    { title: 'Конец и счёт', items: [
      'Сдача кончается, когда руки пусты. Ваш счёт — взятые карты минус честная доля (2 вчетвером, 3 втроём).',
      { opt: 'two_p_score', when: { players: '2' }, v: { difference: 'Вдвоём: разница между вашими картами и картами соперника.', half: 'Вдвоём: ваши карты минус 8.' } },
      { opt: 'ket_bonus', v: { on: 'Кто выиграл последнюю взятку своим заходом, получает с каждого: 2 за пару колесниц, пушек или коней, 3 за тройку колесница–пушка–конь или пару чёрных солдат.', off: 'За последнюю взятку надбавки нет.' } },
      { opt: 'overtake', v: { on: 'Если последний заход — чёрные солдаты и кто-то бьёт их красным набором, заходивший платит 3.', off: null } },
      { opt: 'session_end', v: { 'deals:1': 'Играется одна сдача.', deals: 'Сдач играется: {n}; очки складываются.', target: 'Сдачи играются, пока чей-нибудь итог не достигнет {n}.' } },
    ] },
  ],
  vi: [
    { title: 'Bộ bài', items: [
      '32 quân, hai màu đỏ và đen, in chữ các quân cờ tướng: mỗi màu có 1 Tướng, 2 Sĩ, 2 Tượng, 2 Xe, 2 Pháo, 2 Mã và 5 Tốt.',
      'Từ cao xuống thấp: Tướng, Sĩ, Tượng, Xe, Pháo, Mã, Tốt; hai quân giống nhau thì quân đỏ cao hơn.',
      'Các bộ được ra: một lá; một đôi (hai lá giống nhau cùng màu); một bộ ba cùng màu (Tướng–Sĩ–Tượng, hoặc thấp hơn là Xe–Pháo–Mã); Tứ tử hoặc Ngũ tử (bốn hoặc năm Tốt cùng màu).',
    ] },
    { title: 'Mục tiêu', items: [
      'Ăn các vòng: mỗi vòng bạn ăn, các lá của chính bạn trong vòng đó về chồng bài của bạn. Ăn càng nhiều lá, điểm càng cao.',
      { opt: 'players', v: { 4: 'Bốn người chơi, mỗi người 8 lá.', 3: 'Ba người chơi, mỗi người 9 hoặc 10 lá (bỏ bớt vài lá khỏi bộ bài).', 2: 'Hai người chơi, mỗi người 16 lá; mỗi người có thể suy ra bài người kia được chia.' } },
    ] },
    { title: 'Một vòng', items: [
      'Người ra bài úp một bộ xuống và nói bộ đó có mấy lá.',
      'Những người khác lần lượt úp cùng số lá, không được xem bài ra.',
      'Bài ra được lật lên. Rồi từng người lần lượt ngửa bài của mình hoặc chui (giữ úp). Không bao giờ bắt buộc phải ngửa.',
      'Bộ cao nhất đã ngửa, cùng loại với bài ra, thì ăn; nếu bằng nhau, người đi trước ăn (người ra bài trước hết). Những lá chui thì mãi mãi không ai biết.',
      'Người ăn lấy các lá của chính mình trong vòng và ra bài vòng sau. Lượt đi vòng sang phải (ngược chiều kim đồng hồ).',
    ] },
    { title: 'Trường hợp đặc biệt', items: [
      { opt: 'first_trick_ban', v: { auto: 'Vòng đầu: người ra bài không được ra Tướng hay Sĩ (ba người chơi thì cả Tượng), và những quân đó không ăn được vòng này.', none: 'Vòng đầu: không cấm quân nào.', g_a: 'Vòng đầu: không được ra Tướng hay Sĩ, và những quân đó không ăn được vòng này.', g_a_e: 'Vòng đầu: không được ra Tướng, Sĩ hay Tượng, và những quân đó không ăn được vòng này.', g_a_e_bs: 'Vòng đầu: không được ra Tướng, Sĩ, Tượng hay Tốt đen, và những quân đó không ăn được vòng này.' } },
      { opt: 'soldier_special', v: {
        seize: 'Trước khi đánh có thể trình làng Ngũ tử cùng màu: người trình làng được cái, ra bài đầu tiên. Tứ tử đã trình làng được ra ngay thành một vòng thêm. Trình làng đen thì có thể bị chặn bằng bộ đỏ.',
        autowin: 'Trước khi đánh có thể trình làng Tứ tử hoặc Ngũ tử cùng màu: mọi người trả người trình làng 2 (Tứ tử) hoặc 3 (Ngũ tử). Trình làng đen thì có thể bị bộ đỏ giành lại.',
        none: 'Tứ tử và Ngũ tử chỉ là bộ để ra, không trình làng trước khi đánh.' } },
      { opt: 'night_exchange', v: { off: null }, text: 'Chia bài xong, mỗi người chuyển úp {v} lá cho người kế tiếp.' },
    ] },
    { title: 'Kết thúc và tính điểm', items: [
      'Ván kết thúc khi hết bài trên tay. Điểm của bạn là số lá bạn ăn, trừ phần chia đều (2 với bốn người, 3 với ba người).',
      { opt: 'two_p_score', when: { players: '2' }, v: { difference: 'Hai người chơi: hiệu số giữa lá của bạn và lá của người kia.', half: 'Hai người chơi: số lá của bạn trừ 8.' } },
      { opt: 'ket_bonus', v: { on: 'Kết: ăn vòng cuối bằng chính bộ mình ra thì mỗi người khác trả thưởng: 2 cho đôi Xe, đôi Pháo hoặc đôi Mã, 3 cho bộ ba Xe–Pháo–Mã hoặc đôi Tốt đen.', off: 'Không có thưởng cho vòng cuối.' } },
      { opt: 'overtake', v: { on: 'Nếu lần ra bài cuối là Tốt đen và có người đè bằng bộ đỏ, người ra bài trả 3.', off: null } },
      { opt: 'session_end', v: { 'deals:1': 'Chơi một ván.', deals: 'Số ván chơi: {n}; điểm được cộng dồn.', target: 'Chơi nhiều ván cho đến khi tổng điểm của ai đó đạt {n}.' } },
    ] },
  ],
};
