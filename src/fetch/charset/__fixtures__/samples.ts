// Sample texts for charset detection tests, written for this project, one or two per
// language, with the encodings each one is tried in.

export interface LangSample {
  name: string;
  text: string;
  /** Encodings the text is encoded in for the tests (all can encode it). */
  charsets: string[];
}

export const SAMPLES: readonly LangSample[] = [
  {
    name: 'zh-Hans news',
    charsets: ['gbk', 'gb18030', 'utf-8'],
    text:
      '本市今年第一季度的经济运行总体平稳，工业生产和居民消费都保持了增长。统计局的负责人在发布会上表示，' +
      '全市规模以上工业增加值同比增长百分之五点二，社会消费品零售总额也有明显回升。与此同时，新能源汽车、' +
      '集成电路和生物医药等新兴产业发展较快，成为拉动经济增长的重要力量。不过，他也指出，外部环境依然复杂，' +
      '部分中小企业的经营压力仍然较大，下一步将继续加大政策支持力度，帮助企业稳定就业、扩大投资。',
  },
  {
    name: 'zh-Hans forum',
    charsets: ['gbk', 'gb18030', 'utf-8'],
    text:
      '楼主你好，我最近买了一台二十七寸的显示器，分辨率是四K的，但是接上笔记本以后总是出现闪屏的问题。' +
      '换了两根数据线也没有用，驱动程序也已经更新到最新版本了。请问有没有遇到过类似情况的朋友？' +
      '是不是显示器本身的质量有问题，还是电脑的显卡不支持这么高的刷新率？谢谢大家的回复，' +
      '如果解决了我会在这里把方法分享出来。',
  },
  {
    name: 'zh-Hans jobs',
    charsets: ['gbk', 'gb18030', 'utf-8'],
    text:
      '职位描述：负责公司电力系统相关软件的设计和开发工作，参与需求分析和技术方案的讨论，' +
      '编写高质量的代码和文档。任职要求：计算机或相关专业本科以上学历，三年以上开发经验，' +
      '熟悉常用的数据结构和算法，有良好的沟通能力和团队合作精神。我们提供有竞争力的薪资、' +
      '五险一金、带薪年假和定期的培训机会。',
  },
  {
    name: 'zh-Hant weather',
    charsets: ['big5', 'gbk', 'utf-8'],
    text:
      '今年夏天的颱風特別多，氣象局提醒民眾要隨時注意最新的天氣資訊。許多學校已經宣布停課，' +
      '政府也準備了充足的物資，以應付可能發生的災害。住在山區的居民應該提早撤離，避免發生危險。' +
      '專家表示，由於全球暖化的影響，未來極端天氣的出現頻率可能會越來越高，我們必須認真思考' +
      '如何減少碳排放，保護我們的環境。',
  },
  {
    name: 'zh-Hant laptop',
    charsets: ['big5', 'utf-8'],
    text:
      '這家公司最近推出了新的筆記型電腦，重量只有一公斤左右，電池可以使用十二個小時。' +
      '雖然價格比較貴，但是很多上班族和學生都認為非常值得購買。網路上的評價大多是正面的，' +
      '不過也有人抱怨鍵盤的手感不夠好，螢幕的亮度在戶外有點不足。如果你正在考慮換電腦，' +
      '不妨先到門市實際試用看看。',
  },
  {
    name: 'ja diary',
    charsets: ['shift_jis', 'euc-jp', 'utf-8'],
    text:
      '昨日の夜から降り続いた雨もようやく止み、今朝は久しぶりに青空が広がりました。' +
      '駅までの道を歩いていると、道端のあじさいが雨に濡れてとてもきれいでした。' +
      '会社に着くと、同僚たちは来週の会議の準備で忙しそうにしていました。私も資料を作成しなければ' +
      'ならないので、午前中はずっとパソコンに向かって作業をしていました。' +
      '昼休みには近くの定食屋で焼き魚の定食を食べました。',
  },
  {
    name: 'ja software',
    charsets: ['shift_jis', 'euc-jp', 'utf-8'],
    text:
      'このソフトウェアは、ウェブサイトから必要な情報を自動的に集めるためのツールです。' +
      '設定ファイルにキーワードと開始ページを書くだけで、関連するページを効率よく見つけることが' +
      'できます。収集したデータはデータベースに保存され、後から検索したり、表やグラフにして' +
      '確認したりすることができます。詳しい使い方については、マニュアルをご覧ください。',
  },
  {
    name: 'ko dinner',
    charsets: ['euc-kr', 'utf-8'],
    text:
      '어제 저녁에는 오랜만에 가족들과 함께 외식을 했습니다. 동네에 새로 생긴 한식당에 갔는데, ' +
      '음식이 정말 맛있어서 모두 만족했습니다. 특히 된장찌개와 불고기가 인기가 많았고, 반찬도 ' +
      '깔끔하게 나왔습니다. 식사를 마친 후에는 근처 공원을 천천히 걸으며 이야기를 나누었습니다. ' +
      '다음 주말에는 할머니 댁에 가기로 했습니다.',
  },
  {
    name: 'ko policy',
    charsets: ['euc-kr', 'utf-8'],
    text:
      '정부는 내년부터 청년들의 주거 문제를 해결하기 위해 새로운 지원 정책을 시행한다고 ' +
      '발표했습니다. 이 정책에 따르면 소득이 일정 수준 이하인 청년은 월세의 일부를 지원받을 수 ' +
      '있으며, 전세 자금 대출의 이자도 낮아집니다. 전문가들은 이번 정책이 청년층의 경제적 부담을 ' +
      '줄이는 데 도움이 될 것이라고 평가했습니다.',
  },
  {
    name: 'fr',
    charsets: ['windows-1252', 'utf-8'],
    text:
      'Le conseil municipal a approuvé mercredi soir le projet de rénovation de la médiathèque, ' +
      'fermée depuis l’été dernier. Les travaux, qui devraient durer dix-huit mois, coûteront près ' +
      'de 4,2 millions d’euros. « C’est un équipement essentiel pour la vie culturelle du quartier », ' +
      'a déclaré la maire, précisant que les collections seraient accessibles en ligne pendant la ' +
      'fermeture.',
  },
  {
    name: 'de',
    charsets: ['windows-1252', 'utf-8'],
    text:
      'Die Stadtwerke kündigten am Dienstag an, die Strompreise zum ersten Januar um durchschnittlich ' +
      'sieben Prozent zu senken. Grund dafür seien die gesunkenen Einkaufspreise an der Börse. Für ' +
      'einen Haushalt mit einem jährlichen Verbrauch von 3.500 Kilowattstunden bedeutet das eine ' +
      'Ersparnis von rund 90 Euro. Verbraucherschützer begrüßten die Entscheidung.',
  },
  {
    name: 'es',
    charsets: ['windows-1252', 'utf-8'],
    text:
      'El ayuntamiento inauguró ayer la nueva biblioteca pública, situada junto a la estación de ' +
      'autobuses. El edificio cuenta con más de cuarenta mil libros, una sala de estudio con ciento ' +
      'veinte plazas y un espacio infantil. Según la concejala de cultura, la biblioteca abrirá ' +
      'también los domingos por la mañana. «Queremos que sea un lugar de encuentro», añadió.',
  },
  {
    name: 'en punctuation',
    charsets: ['windows-1252', 'utf-8'],
    text:
      'The committee’s report — published on Tuesday — found that “most of the savings” came from ' +
      'energy contracts renegotiated in 2023. Costs fell by €1.2 million… roughly 8 % of the annual ' +
      'budget. Critics said the figures weren’t comparable with last year’s.',
  },
  {
    name: 'pt',
    charsets: ['windows-1252', 'utf-8'],
    text:
      'A prefeitura anunciou nesta segunda-feira a ampliação do horário de funcionamento das creches ' +
      'municipais. A partir do próximo mês, as unidades vão abrir às seis e meia da manhã e fechar ' +
      'às sete da noite, atendendo a uma reivindicação antiga das famílias que trabalham em turnos.',
  },
];

/** Wraps text in a small ASCII page without any charset declaration. */
export function htmlPage(title: string, text: string): string {
  return (
    '<!DOCTYPE html>\n<html><head><title>' +
    title +
    '</title>\n<link rel="stylesheet" href="/s.css"></head>\n<body><div class="nav"><a href="/">Home</a>' +
    ' | <a href="/about">About</a></div>\n<article><h1>' +
    title +
    '</h1>\n<p>' +
    text +
    '</p></article>\n<footer>(c) 2024 Example</footer></body></html>\n'
  );
}
