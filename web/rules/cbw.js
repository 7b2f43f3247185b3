// rules/cbw.js — City Behind Walls for players, in en and ru (js/rules.js
// reads it; written from /work/shared/rules/city-behind-walls.md).
export default {
  defaults: { players: '4', deck: '36', w: 'auto', h: '4', first: 'random' },
  ja: [
    { title: '目的', items: [
      '赤と黒の2チームが場に札を表向きに並べ、空きマスを壁で囲み（城）、相手チームの札を取る。城の1マスと取った札1枚がそれぞれ1点。',
      { opt: 'players', v: {
        4: '4人：赤、黒、赤、黒と交互に座り、順番に打つ。味方は向かい合わせ。',
        6: '6人：1チーム3人、赤と黒が交互に座る。',
        2: '2人：各自がチームの2つの席（2つの手札）を持つので、4人のゲームと同じ。' } },
      { opt: 'deck', v: { 36: '36枚、6〜エース。赤チームが赤い札（♥ ♦）を全部、黒チームが黒い札（♠ ♣）を全部持つ。', 52: '52枚、2〜エース。赤チームが赤い札（♥ ♦）を全部、黒チームが黒い札（♠ ♣）を全部持つ。' } },
      '見えるのは自分の手札、場、取られた札、各自の手札の枚数。味方の手札は見えない。',
    ] },
    { title: '手番', items: [
      '手札から1枚を、場の札の上下左右に表向きで置くか、パス。',
      '同じスートの札の隣には置けない。',
      '隣に自分の色の札があれば置ける。なければ、隣の札の少なくとも1枚より強くなければならない（エースが最強、同じ数は強くない）。',
      '最初の札は数札。絵札やエースは不可。',
      { opt: 'first', v: { random: '先攻チームは抽選。', red: '赤が先攻。', black: '黒が先攻。' } },
    ] },
    { title: '城壁', items: [
      { opt: 'w', v: { auto: '札はすべて横9枚（52枚なら12枚）の長方形の中に置く。' }, text: '札はすべて横{v}枚の長方形の中に置く。' },
      { opt: 'h', text: '長方形の縦は{v}枚。' },
      '長方形は最初は見えない。札がその横幅（または高さ）いっぱいに広がると、その端が以後ずっと動かない壁になる。',
    ] },
    { title: '札を取る', items: [
      '同じ色の札がつながると1つのグループになる。壁の内側の空きマスに1つも接していないグループは取られ、その札は相手チームの捕虜になる。',
      '札を置いたら、まず空きマスに接していない相手チームのグループを取り、その後で自分のグループ。',
      '自分のグループが空きマスに接しなくなる場所には置けない。ただし何かを取れるなら置ける。',
      '壁が決まると札を取れることもある。新しい壁の外のマスは数えなくなるため。',
    ] },
    { title: '終わりと得点', items: [
      '全員が続けてパスしたら終わり。',
      '壁の内側の空き地で、赤い札にだけ接しているものは赤の城（1マス1点）、黒い札にだけ接しているものは黒の城、それ以外は誰のものでもない。',
      '捕虜1枚が1点。点の多いチームの勝ち、同点なら引き分け。',
    ] },
  ],
  en: [
    { title: 'Goal', items: [
      'Two teams, Red and Black, lay cards face up on the table and try to wall in empty places (castles) and to capture the other team’s cards. Castles and captured cards score a point each.',
      { opt: 'players', v: {
        4: 'Four players: seats take turns around the table, Red, Black, Red, Black; partners sit opposite.',
        6: 'Six players: three on each team, seats alternating Red and Black.',
        2: 'Two people: each plays both seats of a team (two hands), so the game is the four-seat game.' } },
      { opt: 'deck', v: { 36: '36 cards, 6 to ace. Red players get all the red cards (♥ ♦), Black players all the black ones (♠ ♣).', 52: '52 cards, 2 to ace. Red players get all the red cards (♥ ♦), Black players all the black ones (♠ ♣).' } },
      'You see your own hand, the table, the captured cards and how many cards each player holds — not your partner’s hand.',
    ] },
    { title: 'A turn', items: [
      'Place one card from your hand face up next to a card already on the table (above, below, left or right), or pass.',
      'Never next to a card of the same suit.',
      'If one of its neighbours is your colour, the card may go there. Otherwise it must be higher than at least one of its neighbours (ace high; an equal rank is not higher).',
      'The first card of the game must be a number card, not a court card or an ace.',
      { opt: 'first', v: { random: 'Which team opens is drawn at random.', red: 'Red opens.', black: 'Black opens.' } },
    ] },
    { title: 'The walls', items: [
      { opt: 'w', v: { auto: 'All play stays inside a rectangle 9 cards wide (12 with 52 cards).' }, text: 'All play stays inside a rectangle {v} cards wide.' },
      { opt: 'h', text: 'The rectangle is {v} cards high.' },
      'The rectangle is not drawn at first: once the cards reach across its whole width (or height), those edges become fixed walls for the rest of the game.',
    ] },
    { title: 'Captures', items: [
      'Cards of one colour that touch each other form a group. A group is captured when no empty place inside the walls touches it: its cards go to the other team as prisoners.',
      'After you place a card, the other team’s groups without an empty neighbour are captured first, then your own.',
      'You may not place a card where its own group would be left with no empty neighbour, unless that captures something.',
      'Fixing a wall can capture too: places beyond the new wall no longer count.',
    ] },
    { title: 'The end and the score', items: [
      'The game ends when every player passes in a row.',
      'Each empty area inside the walls touched only by Red cards is a Red castle (a point per place); only by Black cards, a Black castle; otherwise nobody’s.',
      'Each prisoner is a point. The team with more points wins; equal points are a draw.',
    ] },
  ],
  ru: [
    { title: 'Цель', items: [
      'Две команды, Красные и Чёрные, выкладывают карты лицом вверх и стараются обнести стенами пустые места (замки) и взять в плен карты соперников. Каждое место замка и каждый пленник — очко.',
      { opt: 'players', v: {
        4: 'Четыре игрока: места ходят по кругу — Красный, Чёрный, Красный, Чёрный; партнёры сидят друг напротив друга.',
        6: 'Шесть игроков: по трое в команде, места чередуются.',
        2: 'Двое: каждый играет оба места своей команды (две руки), так что это игра на четыре места.' } },
      { opt: 'deck', v: { 36: '36 карт, от шестёрки до туза. Красные получают все красные карты (♥ ♦), Чёрные — все чёрные (♠ ♣).', 52: '52 карты, от двойки до туза. Красные получают все красные карты (♥ ♦), Чёрные — все чёрные (♠ ♣).' } },
      'Вы видите свою руку, стол, пленников и сколько карт у каждого — но не руку партнёра.',
    ] },
    { title: 'Ход', items: [
      'Положите одну карту из руки лицом вверх рядом с картой на столе (сверху, снизу, слева или справа) или пасуйте.',
      'Никогда рядом с картой той же масти.',
      'Если хотя бы один сосед вашего цвета, карту класть можно. Иначе она должна быть старше хотя бы одного из соседей (туз старший; равная не старше).',
      'Первая карта партии — числовая, не картинка и не туз.',
      { opt: 'first', v: { random: 'Какая команда начинает, решает жребий.', red: 'Начинают Красные.', black: 'Начинают Чёрные.' } },
    ] },
    { title: 'Стены', items: [
      { opt: 'w', v: { auto: 'Вся игра идёт внутри прямоугольника шириной 9 карт (12 при 52 картах).' }, text: 'Вся игра идёт внутри прямоугольника; его ширина в картах — {v}.' },
      { opt: 'h', text: 'Его высота в картах — {v}.' },
      'Сначала прямоугольник не очерчен: когда карты протянутся на всю его ширину (или высоту), эти края становятся стенами до конца партии.',
    ] },
    { title: 'Взятия', items: [
      'Карты одного цвета, касающиеся друг друга, — группа. Группа взята, когда её не касается ни одно пустое место внутри стен: её карты уходят пленниками к другой команде.',
      'После вашего хода сначала берутся группы соперников без пустых соседей, потом ваши.',
      'Нельзя класть карту туда, где её группа останется без пустых соседей, если этим ничего не берётся.',
      'Поставленная стена тоже может взять: места за новой стеной больше не считаются.',
    ] },
    { title: 'Конец и счёт', items: [
      'Партия кончается, когда все игроки спасовали подряд.',
      'Пустая область внутри стен, которой касаются только красные карты, — замок Красных (очко за каждое место); только чёрные — замок Чёрных; иначе ничья.',
      'Каждый пленник — очко. Побеждает команда с большим счётом; при равенстве — ничья.',
    ] },
  ],
  vi: [
    { title: 'Mục tiêu', items: [
      'Hai đội, Đỏ và Đen, lần lượt đặt bài ngửa lên bàn, tìm cách dựng tường vây những chỗ trống (thành) và bắt bài của đội kia. Mỗi ô thành và mỗi lá bắt được là một điểm.',
      { opt: 'players', v: {
        4: 'Bốn người chơi: các ghế lần lượt đi quanh bàn, Đỏ, Đen, Đỏ, Đen; đồng đội ngồi đối diện.',
        6: 'Sáu người chơi: mỗi đội ba người, ghế Đỏ và Đen xen kẽ.',
        2: 'Hai người: mỗi người chơi cả hai ghế của một đội (hai tay bài), nên vẫn là trò bốn ghế.' } },
      { opt: 'deck', v: { 36: '36 lá, từ 6 đến át. Người chơi đội Đỏ nhận mọi lá đỏ (♥ ♦), đội Đen nhận mọi lá đen (♠ ♣).', 52: '52 lá, từ 2 đến át. Người chơi đội Đỏ nhận mọi lá đỏ (♥ ♦), đội Đen nhận mọi lá đen (♠ ♣).' } },
      'Bạn thấy bài trên tay mình, bàn chơi, các lá bị bắt và mỗi người còn bao nhiêu lá — nhưng không thấy bài của đồng đội.',
    ] },
    { title: 'Một lượt', items: [
      'Đặt một lá trên tay, ngửa lên, cạnh một lá đã có trên bàn (phía trên, phía dưới, bên trái hoặc bên phải), hoặc bỏ lượt.',
      'Không bao giờ đặt cạnh một lá cùng chất.',
      'Nếu có một lá bên cạnh cùng màu với bạn thì đặt được. Nếu không, lá đó phải cao hơn ít nhất một lá bên cạnh (át cao nhất; bằng nhau thì không tính là cao hơn).',
      'Lá đầu tiên của ván phải là lá số, không phải lá hình hay át.',
      { opt: 'first', v: { random: 'Bốc thăm xem đội nào đi trước.', red: 'Đội Đỏ đi trước.', black: 'Đội Đen đi trước.' } },
    ] },
    { title: 'Tường', items: [
      { opt: 'w', v: { auto: 'Mọi nước đi đều nằm trong một hình chữ nhật rộng 9 lá (12 lá với bộ 52 lá).' }, text: 'Mọi nước đi đều nằm trong một hình chữ nhật rộng {v} lá.' },
      { opt: 'h', text: 'Hình chữ nhật cao {v} lá.' },
      'Lúc đầu chưa vẽ hình chữ nhật: khi bài trải hết chiều rộng (hoặc chiều cao) của nó, các cạnh đó thành tường cố định đến hết ván.',
    ] },
    { title: 'Bắt bài', items: [
      'Các lá cùng màu chạm nhau tạo thành một nhóm. Nhóm bị bắt khi không còn chỗ trống nào trong tường chạm vào nó: các lá của nhóm thành tù binh của đội kia.',
      'Sau khi bạn đặt bài, các nhóm của đội kia không còn chỗ trống bên cạnh bị bắt trước, rồi mới đến nhóm của bạn.',
      'Không được đặt lá vào chỗ làm nhóm của chính nó hết chỗ trống bên cạnh, trừ khi nước đó bắt được bài.',
      'Dựng tường cũng có thể bắt bài: những chỗ bên ngoài bức tường mới không còn được tính.',
    ] },
    { title: 'Kết thúc và tính điểm', items: [
      'Ván kết thúc khi mọi người chơi liên tiếp bỏ lượt.',
      'Mỗi vùng trống trong tường chỉ chạm lá Đỏ là thành của đội Đỏ (mỗi ô một điểm); chỉ chạm lá Đen là thành của đội Đen; còn lại không của ai.',
      'Mỗi tù binh là một điểm. Đội nhiều điểm hơn thắng; bằng điểm thì hòa.',
    ] },
  ],
};
