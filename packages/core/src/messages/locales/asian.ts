import type { MailMessages } from './catalogue.js';

/** The messages in Japanese, Simplified Chinese and Arabic. */

export const ja: MailMessages = {
  smsHi: (n) => `${n}様、`,
  hi: (n) => `${n}様`,
  hello: 'お客様',
  requestSms: (b, a, pre, f, link) =>
    `${b}より${f ? `「${f}」の` : ''}${a}の${pre ? 'オーソリ（仮売上）' : 'お支払い'}のご依頼です。こちらから安全に${pre ? '承認' : 'お支払い'}いただけます：${link}`,
  requestSubject: (b, a, pre) => `${b}からの${pre ? 'オーソリ' : 'お支払い'}のご依頼：${a}`,
  requested: (b, a, pre) => `${b}より${a}の${pre ? 'オーソリ（仮売上）' : 'お支払い'}のご依頼が届いています。`,
  secureHere: (pre) => `こちらから安全に${pre ? '承認' : 'お支払い'}いただけます：`,
  button: (a, pre) => `${a}を${pre ? '承認する' : '支払う'}`,
  orOpen: 'または次のリンクを開いてください：',
  notExpecting: 'このご依頼にお心当たりがない場合は、このメールを無視してください。',
  amount: '金額',
  for: '内容',
  order: '注文番号',
  invoice: '請求書番号',
  transaction: '取引ID',
  authCode: '承認番号',
  date: '日時',
  card: 'カード',
  bankAccount: '銀行口座',
  endingIn: (b, l) => `${b}（末尾${l}）`,
  receiptSubject: (b, a, auth) => `${b}からの${auth ? 'オーソリ確認' : '領収書'}：${a}`,
  receiptWhat: (s, a, b) =>
    s === 'authorized'
      ? `${b}への${a}を承認しました。金額はカードに仮押さえされており、まだ請求されていません。`
      : s === 'pending'
        ? `${b}への${a}の銀行振替を受け付けました。銀行が引き落としを承認すると完了します。`
        : `${b}へ${a}をお支払いいただきました。`,
  keep: 'このメールは控えとして保管してください。',
  cardSms: (n, b, link) => `${n}様、${b}より今後のお支払いに使うカードの登録のお願いです。こちらから安全に登録できます：${link}`,
  cardSubject: (b) => `${b}からお支払い用カード登録のお願い`,
  cardAsk: (b) => `${b}より、今後のお支払いに使うカードの登録をお願いしています。`,
  addHere: 'こちらから安全に登録できます：',
  addButton: 'カードを安全に登録する',
};

export const zhHans: MailMessages = {
  smsHi: (n) => `${n}，您好！`,
  hi: (n) => `${n}，您好：`,
  hello: '您好：',
  requestSms: (b, a, pre, f, link) =>
    `${b}请求您${pre ? '授权' : '支付'} ${a}${f ? `（${f}）` : ''}。安全${pre ? '授权' : '支付'}：${link}`,
  requestSubject: (b, a, pre) => `来自${b}的${pre ? '授权' : '付款'}请求：${a}`,
  requested: (b, a, pre) => `${b}请求您${pre ? '授权' : '支付'} ${a}。`,
  secureHere: (pre) => `请在此安全${pre ? '授权' : '支付'}：`,
  button: (a, pre) => `${pre ? '授权' : '支付'} ${a}`,
  orOpen: '或打开此链接：',
  notExpecting: '如果您没有预期收到此请求，可以忽略这封邮件。',
  amount: '金额',
  for: '用途',
  order: '订单',
  invoice: '发票',
  transaction: '交易编号',
  authCode: '授权码',
  date: '日期',
  card: '银行卡',
  bankAccount: '银行账户',
  endingIn: (b, l) => `尾号为 ${l} 的 ${b}`,
  receiptSubject: (b, a, auth) => `来自${b}的${auth ? '授权确认' : '收据'}：${a}`,
  receiptWhat: (s, a, b) =>
    s === 'authorized'
      ? `您已向${b}授权 ${a}。该金额已在您的卡上冻结，尚未扣款。`
      : s === 'pending'
        ? `您向${b}支付 ${a} 的银行付款已提交，银行批准扣款后即完成。`
        : `您已向${b}支付 ${a}。`,
  keep: '请保留此邮件以备查阅。',
  cardSms: (n, b, link) => `${n}，您好！${b}请您添加一张银行卡用于今后付款。安全添加：${link}`,
  cardSubject: (b) => `${b}请您添加付款卡`,
  cardAsk: (b) => `${b}请您添加一张银行卡，以便今后向其付款。`,
  addHere: '请在此安全添加：',
  addButton: '安全添加您的银行卡',
};

export const ar: MailMessages = {
  smsHi: (n) => `مرحبًا ${n}، `,
  hi: (n) => `مرحبًا ${n}،`,
  hello: 'مرحبًا،',
  requestSms: (b, a, pre, f, link) =>
    `يطلب ${b} ${pre ? `تفويضًا بمبلغ ${a}` : `دفعة بمبلغ ${a}`}${f ? ` مقابل ${f}` : ''}. ${pre ? 'فوّض' : 'ادفع'} بأمان: ${link}`,
  requestSubject: (b, a, pre) => `طلب ${pre ? 'تفويض' : 'دفع'} من ${b}: ${a}`,
  requested: (b, a, pre) => `طلب ${b} ${pre ? `تفويضًا بمبلغ ${a}` : `دفعة بمبلغ ${a}`}.`,
  secureHere: (pre) => `${pre ? 'فوّض' : 'ادفع'} بأمان من هنا:`,
  button: (a, pre) => `${pre ? 'فوّض' : 'ادفع'} ${a}`,
  orOpen: 'أو افتح هذا الرابط:',
  notExpecting: 'إذا لم تكن تتوقع هذا الطلب، يمكنك تجاهل هذه الرسالة.',
  amount: 'المبلغ',
  for: 'مقابل',
  order: 'الطلب',
  invoice: 'الفاتورة',
  transaction: 'العملية',
  authCode: 'رمز التفويض',
  date: 'التاريخ',
  card: 'البطاقة',
  bankAccount: 'الحساب المصرفي',
  endingIn: (b, l) => `${b} المنتهية بـ ${l}`,
  receiptSubject: (b, a, auth) => `${auth ? 'تفويض' : 'إيصال'} من ${b}: ${a}`,
  receiptWhat: (s, a, b) =>
    s === 'authorized'
      ? `فوّضت ${b} بمبلغ ${a}. المبلغ محجوز على بطاقتك ولم يُخصم بعد.`
      : s === 'pending'
        ? `أُرسلت دفعتك المصرفية بمبلغ ${a} إلى ${b}، وتكتمل عندما يوافق مصرفك على الخصم.`
        : `دفعت ${a} إلى ${b}.`,
  keep: 'احتفظ بهذه الرسالة في سجلاتك.',
  cardSms: (n, b, link) => `مرحبًا ${n}، يطلب منك ${b} إضافة بطاقة للمدفوعات القادمة. أضفها بأمان: ${link}`,
  cardSubject: (b) => `يطلب منك ${b} إضافة بطاقة دفع`,
  cardAsk: (b) => `يطلب منك ${b} إضافة بطاقة للدفع له مستقبلًا.`,
  addHere: 'أضفها بأمان من هنا:',
  addButton: 'أضف بطاقتك بأمان',
};
