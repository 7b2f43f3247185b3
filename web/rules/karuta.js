// rules/karuta.js — karuta with the Hundred Poems for players, in en and ru,
// one part per variant (js/rules.js shows the room's variant; written from
// /work/shared/rules/karuta.md).
export default {
  defaults: { variant: 'kyogi', memo_s: '900', wrong_answer: 'receive1', cards: '100', foul: 'pot', send: 'manual', place: 'auto', answer: 'card', rearrange: 'off', teams: 'off', owner_ms: '3000' },
  ja: [
    { title: '札', items: [
      '百首の短い和歌。読手が読み札から歌を読み、プレイヤーは下の句の書かれた取り札を探して先に触れる。',
      '歌は最初の音でわかる。多くは最初の1〜3音（決まり字）で決まり、画面にその位置が表示される。',
    ] },
    { title: '目的：競技かるた（2人）', when: { variant: 'kyogi' }, items: [
      '先に自陣の札をなくした人の勝ち。各自25枚を自分の前に3段に並べる。残りの50首も読まれるが、その札は場にない（空札）。',
      { opt: 'memo_s', text: '最初の読みの前に札の位置を覚える暗記時間がある（秒：{v}）。' },
    ] },
    { title: '読み', when: { variant: 'kyogi' }, items: [
      '歌が読まれたら、どちらの陣でもその札に触れる。敵陣の札を取ったら、自陣の札を1枚相手に送る（送り札）。',
      '札のない陣に触れるとお手つきで、相手から札を1枚送られる。空札が読まれたときは、どこに触れてもお手つき。',
      '2人が同時に触れたら、その札がある陣の持ち主が取る。',
    ] },
    { title: '特別なルール', when: { variant: 'kyogi' }, items: [
      { opt: 'send', v: { manual: '送り札は自分で選ぶ。', auto: '一番下の札が自動で送られる。' } },
      { opt: 'place', v: { auto: '受け取った札は自動で並べられる。', manual: '受け取った札は自分で並べる。' } },
      { opt: 'rearrange', v: { on: '読みの合間に、各自が自陣の札を1枚動かすか、準備完了と言う。', off: null } },
    ] },
    { title: '終わり', when: { variant: 'kyogi' }, items: [
      '先に自陣の札がなくなった人の勝ち。',
    ] },
    { title: '目的：うたがるた（4人）', when: { variant: 'uta' }, items: [
      '先に手札をなくした人の勝ち。各自25枚を持ち、対局前に全員が1枚を共有の札に出す。',
    ] },
    { title: '読み', when: { variant: 'uta' }, items: [
      { opt: 'owner_ms', text: '歌が読まれたら、その札の持ち主が先に答える（優先時間、ms：{v}）。その後は誰でも答えられる。' },
      { opt: 'answer', v: { card: '正しい札を選べば正解。', poet: '正しい札を選び、その歌人を答えれば正解。' } },
      '持ち主が答えられず、ほかの人が正しく答えたら、その札は場から外れ、答えた人が持ち主に札を2枚渡す。',
      { opt: 'wrong_answer', v: { receive1: '札を持っていない人のお手つき：持ち主がその人に札を1枚渡す。', none: '札を持っていない人のお手つきに罰はない。' } },
    ] },
    { title: '特別なルール', when: { variant: 'uta' }, items: [
      '共有の札が読まれたら、最初に答えた人がそれを外し、札を10枚まで捨てられる。',
      '12番、22番、97番は特別な札：答えた人は左隣の人に札を20枚（または15枚）まで渡せる。',
      { opt: 'teams', v: { '2v2': '2人ずつのチーム（1・3番席対2・4番席）：味方同士では札のやりとりも罰もない。チームで勝つ。', off: null } },
    ] },
    { title: '終わり', when: { variant: 'uta' }, items: [
      '先に札がなくなった人の勝ち。先に全部の歌が読まれたら、札の一番少ない人の勝ち。',
    ] },
    { title: '目的：散らし取り', when: { variant: 'chirashi' }, items: [
      '一番多く札を取る。札はすべて1つの共有の場に散らされ、誰のものでもない。',
      { opt: 'cards', v: { 100: '場に100枚全部。', 50: '場に50枚。残りの50首も読まれる。' } },
    ] },
    { title: '読み', when: { variant: 'chirashi' }, items: [
      '歌が読まれたら、最初にその札に触れた人が取る。',
      '100分の1秒以内の差は同時とみなし、サーバーが先に受け取った人が取る。',
      { opt: 'foul', v: { pot: '違う札に触れるとお手つき：取った札を1枚積み札に出し、次に札を取った人のものになる。', none: '違う札に触れても罰はない。' } },
    ] },
    { title: '終わり', when: { variant: 'chirashi' }, items: [
      '場の札がなくなったら終わり。一番多く取った人の勝ち、同数なら同順位。',
    ] },
  ],
  en: [
    { title: 'The cards', items: [
      'A hundred short poems. The reader reads a poem from a reading card; the players look for the card that carries its second half and touch it first.',
      'A poem is known from its first sounds: many are decided by the first one, two or three sounds, and the page shows where that point lies.',
    ] },
    { title: 'Goal: competitive karuta (two players)', when: { variant: 'kyogi' }, items: [
      'Be the first to clear your own side of the field. Each player has 25 cards in three rows in front of them; the other 50 poems are read too, but their cards are not on the field.',
      { opt: 'memo_s', text: 'Before the first reading there is time to learn where the cards lie (seconds: {v}).' },
    ] },
    { title: 'A reading', when: { variant: 'kyogi' }, items: [
      'A poem is read: touch its card, on either side. Take a card from the other side and you send them one of yours.',
      'Touching the wrong side is a fault: the other player sends you a card. A poem whose card is not on the field: any touch is a fault.',
      'If both touch the card at the same moment, the owner of that side takes it.',
    ] },
    { title: 'Special cases', when: { variant: 'kyogi' }, items: [
      { opt: 'send', v: { manual: 'You choose which card to send.', auto: 'The lowest of your cards is sent for you.' } },
      { opt: 'place', v: { auto: 'A card you receive is placed for you.', manual: 'You place each card you receive yourself.' } },
      { opt: 'rearrange', v: { on: 'Between readings each player may move one of their cards, or say they are ready.', off: null } },
    ] },
    { title: 'The end', when: { variant: 'kyogi' }, items: [
      'The end: the first player with no cards on their side wins.',
    ] },
    { title: 'Goal: uta-karuta (four players)', when: { variant: 'uta' }, items: [
      'Be the first with no cards in hand. Each player holds 25 cards; before play everyone puts one card in the shared pool.',
    ] },
    { title: 'A reading', when: { variant: 'uta' }, items: [
      { opt: 'owner_ms', text: 'A poem is read: the holder of its card answers first (milliseconds given: {v}); after that anyone may answer.' },
      { opt: 'answer', v: { card: 'Answer by choosing the right card.', poet: 'Answer by choosing the right card and naming its poet.' } },
      'If someone else answers right after the holder fails, the card leaves play and the answerer gives the holder 2 cards.',
      { opt: 'wrong_answer', v: { receive1: 'A wrong answer from someone who does not hold the card: the holder gives them 1 card.', none: 'A wrong answer from someone who does not hold the card costs nothing.' } },
    ] },
    { title: 'Special cases', when: { variant: 'uta' }, items: [
      'A pool card read: whoever answers first removes it and may throw away up to 10 cards.',
      'Cards 12, 22 and 97 are special: whoever answers one may pass up to 20 (or 15) cards to the player on their left.',
      { opt: 'teams', v: { '2v2': 'Teams of two (first and third seat against second and fourth): no gifts or penalties between partners; a team wins.', off: null } },
    ] },
    { title: 'The end', when: { variant: 'uta' }, items: [
      'The end: the first player with no cards wins; if every poem is read first, the fewest cards wins.',
    ] },
    { title: 'Goal: scattered cards (chirashi)', when: { variant: 'chirashi' }, items: [
      'Take the most cards. All the cards lie in one shared field; nobody owns them.',
      { opt: 'cards', v: { 100: 'All 100 cards are on the field.', 50: '50 cards are on the field; the other 50 poems are read too.' } },
    ] },
    { title: 'A reading', when: { variant: 'chirashi' }, items: [
      'A poem is read: the first to touch its card takes it.',
      'Touches a hundredth of a second apart count as the same moment; then the one the server heard first takes the card.',
      { opt: 'foul', v: { pot: 'Touching a wrong card is a fault: you put one of your taken cards in the pot, which goes to the next taker.', none: 'Touching a wrong card costs nothing.' } },
    ] },
    { title: 'The end', when: { variant: 'chirashi' }, items: [
      'The end: when the field is empty; most cards wins, ties share.',
    ] },
  ],
  ru: [
    { title: 'Карты', items: [
      'Сто коротких стихотворений. Чтец читает стихотворение с карты для чтения; игроки ищут карту с его второй половиной и касаются её первыми.',
      'Стихотворение узнаётся по первым звукам: многие решаются первым, вторым или третьим звуком, и страница показывает, где этот момент.',
    ] },
    { title: 'Цель: соревновательная карута (двое)', when: { variant: 'kyogi' }, items: [
      'Первым очистить свою сторону поля. У каждого перед собой 25 карт в три ряда; остальные 50 стихотворений тоже читаются, но их карт на поле нет.',
      { opt: 'memo_s', text: 'Перед первым чтением есть время запомнить, где лежат карты (секунд: {v}).' },
    ] },
    { title: 'Чтение', when: { variant: 'kyogi' }, items: [
      'Читают стихотворение: коснитесь его карты на любой стороне. Взяли карту с чужой стороны — отдаёте сопернику одну свою.',
      'Касание не той стороны — ошибка: соперник отдаёт вам карту. Если карты стихотворения на поле нет, любое касание — ошибка.',
      'Если оба коснулись карты одновременно, её берёт хозяин стороны.',
    ] },
    { title: 'Особые случаи', when: { variant: 'kyogi' }, items: [
      { opt: 'send', v: { manual: 'Какую карту отдать, выбираете вы.', auto: 'За вас отдаётся ваша младшая карта.' } },
      { opt: 'place', v: { auto: 'Полученная карта кладётся за вас.', manual: 'Каждую полученную карту вы кладёте сами.' } },
      { opt: 'rearrange', v: { on: 'Между чтениями каждый может переложить одну свою карту или сказать, что готов.', off: null } },
    ] },
    { title: 'Конец игры', when: { variant: 'kyogi' }, items: [
      'Конец: побеждает тот, на чьей стороне первым не осталось карт.',
    ] },
    { title: 'Цель: ута-карута (четверо)', when: { variant: 'uta' }, items: [
      'Первым остаться без карт в руке. У каждого 25 карт; до игры каждый кладёт одну карту в общий запас.',
    ] },
    { title: 'Чтение', when: { variant: 'uta' }, items: [
      { opt: 'owner_ms', text: 'Читают стихотворение: первым отвечает тот, у кого его карта (миллисекунд на это: {v}); потом отвечать может любой.' },
      { opt: 'answer', v: { card: 'Ответ — выбрать нужную карту.', poet: 'Ответ — выбрать нужную карту и назвать её поэта.' } },
      'Если хозяин карты не ответил, а другой ответил верно, карта уходит из игры, и ответивший отдаёт хозяину 2 карты.',
      { opt: 'wrong_answer', v: { receive1: 'Неверный ответ не хозяина карты: хозяин отдаёт ему 1 карту.', none: 'Неверный ответ не хозяина карты ничего не стоит.' } },
    ] },
    { title: 'Особые случаи', when: { variant: 'uta' }, items: [
      'Прочитана карта из запаса: ответивший первым убирает её и может сбросить до 10 своих карт.',
      'Карты 12, 22 и 97 особые: ответивший может передать соседу слева до 20 (или 15) карт.',
      { opt: 'teams', v: { '2v2': 'Команды по двое (первое и третье место против второго и четвёртого): партнёры не дарят и не штрафуют друг друга; побеждает команда.', off: null } },
    ] },
    { title: 'Конец игры', when: { variant: 'uta' }, items: [
      'Конец: побеждает тот, у кого первым не осталось карт; если все стихотворения прочитаны раньше — у кого карт меньше.',
    ] },
    { title: 'Цель: разбросанные карты (тирасидори)', when: { variant: 'chirashi' }, items: [
      'Взять больше всех карт. Все карты лежат на одном общем поле, ничьих карт нет.',
      { opt: 'cards', v: { 100: 'На поле все 100 карт.', 50: 'На поле 50 карт; остальные 50 стихотворений тоже читаются.' } },
    ] },
    { title: 'Чтение', when: { variant: 'chirashi' }, items: [
      'Читают стихотворение: кто первым коснулся его карты, тот её берёт.',
      'Касания с разницей в сотую долю секунды считаются одновременными; тогда карту берёт тот, чьё касание сервер получил первым.',
      { opt: 'foul', v: { pot: 'Касание не той карты — ошибка: вы кладёте одну взятую карту в общую кучку, которую заберёт следующий взявший.', none: 'Касание не той карты ничего не стоит.' } },
    ] },
    { title: 'Конец игры', when: { variant: 'chirashi' }, items: [
      'Конец: когда поле опустело; побеждает взявший больше всех, при равенстве победа делится.',
    ] },
  ],
  vi: [
    { title: 'Bộ bài', items: [
      'Một trăm bài thơ ngắn. Người đọc đọc một bài thơ từ lá bài đọc; người chơi tìm lá bài ghi nửa sau của bài thơ đó và chạm vào trước tiên.',
      'Một bài thơ được nhận ra từ những âm đầu: nhiều bài được quyết định ngay ở âm thứ nhất, thứ hai hoặc thứ ba (決まり字 kimariji), và trang này cho thấy điểm đó nằm ở đâu.',
    ] },
    { title: 'Mục tiêu: karuta thi đấu (hai người)', when: { variant: 'kyogi' }, items: [
      'Là người đầu tiên dọn sạch phần sân của mình. Mỗi người có 25 lá xếp ba hàng trước mặt; 50 bài thơ còn lại vẫn được đọc, nhưng lá của chúng không có trên sân (空札 karafuda).',
      { opt: 'memo_s', text: 'Trước lượt đọc đầu có thời gian ghi nhớ vị trí các lá (số giây: {v}).' },
    ] },
    { title: 'Một lượt đọc', when: { variant: 'kyogi' }, items: [
      'Một bài thơ được đọc: chạm vào lá của nó, ở bên nào cũng được. Lấy được lá bên phần sân đối phương thì bạn gửi cho họ một lá của mình (送り札 okurifuda).',
      'Chạm nhầm bên là phạm lỗi (お手つき otetsuki): đối phương gửi cho bạn một lá. Bài thơ không có lá trên sân: chạm lá nào cũng là phạm lỗi.',
      'Nếu hai người chạm lá cùng lúc, chủ của phần sân đó lấy lá.',
    ] },
    { title: 'Trường hợp đặc biệt', when: { variant: 'kyogi' }, items: [
      { opt: 'send', v: { manual: 'Bạn tự chọn lá để gửi.', auto: 'Lá thấp nhất của bạn được gửi đi thay bạn.' } },
      { opt: 'place', v: { auto: 'Lá bạn nhận được tự động được đặt cho bạn.', manual: 'Bạn tự đặt từng lá nhận được.' } },
      { opt: 'rearrange', v: { on: 'Giữa các lượt đọc, mỗi người được chuyển một lá của mình, hoặc báo sẵn sàng.', off: null } },
    ] },
    { title: 'Kết thúc', when: { variant: 'kyogi' }, items: [
      'Kết thúc: ai hết lá trên phần sân của mình trước thì thắng.',
    ] },
    { title: 'Mục tiêu: uta-karuta (bốn người)', when: { variant: 'uta' }, items: [
      'Là người đầu tiên hết bài trên tay. Mỗi người cầm 25 lá; trước khi chơi, mỗi người bỏ một lá vào bài chung.',
    ] },
    { title: 'Một lượt đọc', when: { variant: 'uta' }, items: [
      { opt: 'owner_ms', text: 'Một bài thơ được đọc: người cầm lá của nó trả lời trước (số mili giây dành cho họ: {v}); sau đó ai cũng được trả lời.' },
      { opt: 'answer', v: { card: 'Trả lời bằng cách chọn đúng lá.', poet: 'Trả lời bằng cách chọn đúng lá và gọi tên tác giả của nó (歌人 kajin).' } },
      'Nếu người cầm lá trả lời hụt mà người khác trả lời đúng, lá đó bị loại khỏi cuộc chơi và người trả lời đúng đưa cho người cầm lá 2 lá.',
      { opt: 'wrong_answer', v: { receive1: 'Người không cầm lá mà trả lời sai: người cầm lá đưa cho họ 1 lá.', none: 'Người không cầm lá mà trả lời sai thì không mất gì.' } },
    ] },
    { title: 'Trường hợp đặc biệt', when: { variant: 'uta' }, items: [
      'Đọc trúng một lá trong bài chung: ai trả lời trước thì bỏ lá đó đi và được vứt tối đa 10 lá.',
      'Các lá 12, 22 và 97 là lá đặc biệt: ai trả lời được một trong số đó thì được chuyển tối đa 20 (hoặc 15) lá cho người bên trái.',
      { opt: 'teams', v: { '2v2': 'Đội hai người (ghế thứ nhất và thứ ba đấu ghế thứ hai và thứ tư): đồng đội không cho nhau hay phạt nhau; đội thắng.', off: null } },
    ] },
    { title: 'Kết thúc', when: { variant: 'uta' }, items: [
      'Kết thúc: ai hết bài trước thì thắng; nếu mọi bài thơ đã được đọc hết, ai ít lá nhất thì thắng.',
    ] },
    { title: 'Mục tiêu: bài rải (chirashi)', when: { variant: 'chirashi' }, items: [
      'Lấy được nhiều lá nhất. Mọi lá nằm trên một sân chung; không lá nào thuộc về ai.',
      { opt: 'cards', v: { 100: 'Cả 100 lá đều ở trên sân.', 50: 'Trên sân có 50 lá; 50 bài thơ còn lại vẫn được đọc.' } },
    ] },
    { title: 'Một lượt đọc', when: { variant: 'chirashi' }, items: [
      'Một bài thơ được đọc: ai chạm vào lá của nó trước thì lấy.',
      'Các lần chạm cách nhau trong một phần trăm giây tính là cùng lúc; khi đó người mà máy chủ nhận được trước lấy lá.',
      { opt: 'foul', v: { pot: 'Chạm nhầm lá là phạm lỗi: bạn bỏ một lá đã lấy vào hũ, hũ thuộc về người lấy lá tiếp theo.', none: 'Chạm nhầm lá không mất gì.' } },
    ] },
    { title: 'Kết thúc', when: { variant: 'chirashi' }, items: [
      'Kết thúc: khi sân trống; ai nhiều lá nhất thì thắng, bằng nhau thì cùng thắng.',
    ] },
  ],
};
