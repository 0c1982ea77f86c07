"""The engine's table of lone characters whose other readings are archaic, or alive only inside a few words."""

from __future__ import annotations

#: One character a line: ``character reading(s) | why its other readings are not in play`` and, for a
#: reading bound to words, ``| the words where the character reads otherwise``. These are facts of
#: Mandarin, true in any course; a course adds its own (the characters of its transliterations, say)
#: as ``rules`` in its lexicon, in the same three parts.
ARCHAIC_TABLE = """
〇 ling2 | yuán, xīng (circle, star) are rare symbol readings; as a digit it is líng
是 shi4 | tí is an old variant (是 for 题)
位 wei4 | lì is an old variant (位 for 立)
它 ta1 | tuó, yí are archaic
零 ling2 | lián only in 先零, an ancient people
以 yi3 | sì is archaic
次 ci4 | zī (次且) and cí are archaic
也 ye3 | yí is archaic
积 ji1 | zhǐ is archaic
有 you3 | yòu (= 又) is classical, wěi archaic
意 yi4 | yī is archaic
注 zhu4 | zhòu is archaic
慢 man4 | mán is archaic
最 zui4 | cuō is archaic
离 li2 | chī (= 魑) is archaic
往 wang3 | wàng is the old reading of the preposition (往前); the standard is wǎng
于 yu2 | wéi, yū, xū are archaic or surnames
谁 shui2 shei2 | shuí and shéi are the reading and colloquial forms of one word
比 bi3 | bì, pí, pǐ are archaic (比比, 朋比)
写 xie3 | xiè is archaic
方 fang1 | fáng, fǎng, páng, wǎng, fēng are archaic
前 qian2 | jiǎn is archaic
样 yang4 | yáng is archaic
隔 ge2 | rǒng, jī are archaic
从 cong2 | zòng (= 纵) is archaic; cōng (从容) is the old reading
内 nei4 | nà (= 纳) and ruì are archaic
机 ji1 | wèi is archaic
接 jie1 | xié, shà, chā are archaic
那 na4 | nèi is the colloquial form before a measure word (the same word); nǎ (= 哪), nā (surname), nuó, nuò are archaic or names
能 neng2 | tái, nái, nài, xióng are archaic
七 qi1 | qí is the old optional sandhi before a fourth tone
八 ba1 | bá is the old optional sandhi before a fourth tone
去 qu4 | qū is archaic
放 fang4 | fǎng, fāng are archaic
越 yue4 | huó is archaic
平 ping2 | pián, bìng, bēng are archaic or names
本 ben3 | bēn is archaic
之 zhi1 | zhū, zhì are archaic
取 qu3 | qū is archaic
完 wan2 | kuān is archaic
过 guo4 | guō is a surname
列 lie4 | lì is archaic
部 bu4 | pǒu is archaic
而 er2 | néng is archaic
才 cai2 | zāi is archaic
己 ji3 | qǐ is archaic
言 yan2 | yàn, yín are archaic
由 you2 | yāo is archaic
足 zu2 | jù is archaic
道 dao4 | dǎo is archaic
年 nian2 | nìng is archaic
路 lu4 | luò is archaic
支 zhi1 | zhì, qí are archaic
掉 diao4 | nuó is archaic
式 shi4 | tè is archaic
事 shi4 | zì is archaic
追 zhui1 | duī, tuī are archaic
见 jian4 | xiàn (= 现) is archaic
果 guo3 | luǒ, guàn are archaic
精 jing1 | qíng, jìng are archaic
窗 chuang1 | cōng is archaic
告 gao4 | jū, gù are archaic
依 yi1 | yǐ is archaic
已 yi3 | sì is archaic
除 chu2 | zhù, shū are archaic
反 fan3 | fàn is archaic
料 liao4 | liáo is archaic
哪 na3 | na is the particle after a sentence (天哪); né, nuó, nǎi, nà, niè, něi are archaic or dialect
合 he2 | gě is an old unit of volume
斜 xie2 | xiá, chá, yé are archaic
经 jing1 | jìng is a weaving term (经纱)
主 zhu3 | zhù is archaic
明 ming2 | mèng is archaic
眼 yan3 | wěn is archaic
附 fu4 | bù, fū are archaic
被 bei4 | bì, pī, pì are archaic
超 chao1 | chǎo, chào, tiào are archaic
毛 mao2 | mào is archaic
块 kuai4 | yué is archaic
咬 yao3 | jiāo, yāo, jiǎo are archaic
立 li4 | wèi is archaic
光 guang1 | guàng is dialect
清 qing1 | qìng is archaic
感 gan3 | hàn is archaic
绕 rao4 | rǎo is an old variant
串 chuan4 | guàn, quàn are archaic
留 liu2 | liù, liǔ are archaic
身 shen1 | juān is archaic (身毒)
盖 gai4 | gě is a surname
趁 chen4 | zhēn, chén, niǎn, zhěn are archaic
太 tai4 | tā is archaic
既 ji4 | xì is archaic
刻 ke4 | kēi is dialect
找 zhao3 | huá is archaic
遇 yu4 | yóng, ǒu are archaic
客 ke4 | qià is archaic
缺 que1 | kuǐ is archaic
爆 bao4 | bó is archaic
套 tao4 | tǎo is archaic
匀 yun2 | jūn, yùn are archaic
知 zhi1 | zhì (= 智) is archaic
坑 keng1 | kàng is archaic
余 yu2 | tú, xú, yù are archaic or surnames
振 zhen4 | zhēn, zhěn are archaic
伏 fu2 | fù is archaic
九 jiu3 | jiū is archaic
坎 kan3 | kàn is archaic
限 xian4 | wěn is archaic
倍 bei4 | péi is archaic
呈 cheng2 | kuáng, chěng are archaic
运 yun4 | yǔn is archaic
垂 chui2 | zhuì is archaic
抵 di3 | zhǐ, qí are archaic
听 ting1 | yǐn, yí are archaic
但 dan4 | tǎn, yàn are archaic
居 ju1 | jī is the archaic particle
拼 pin1 | bìng is archaic
插 cha1 | zhǎ is dialect
或 huo4 | yù (= 域) is archaic
件 jian4 | móu is archaic
半 ban4 | pàn is archaic
描 miao2 | mào is archaic
盯 ding1 | chéng is archaic
这 zhe4 | zhèi is the colloquial form before a measure word (the same word)
上 shang4 | shǎng only in 上声 | 上声
个 ge4 | gě only in 自个儿 (dialect); gàn is archaic | 自个
和 he2 | hè, huó, huò, hú, huo only in these words | 附和 唱和 应和 和面 和泥 和药 搀和 掺和 和牌 暖和 搅和 软和
把 ba3 | bà (handle) only in these words; pá is archaic | 刀把 把儿 把子 枪把 印把
都 dou1 | dū (capital, city) only in these words | 首都 都市 都城 成都 古都 京都 国都 建都 迁都 都督
塔 ta3 | dā, da only in the dialect word 圪塔 | 圪塔
格 ge2 | gē only in 格格; luò, hè are archaic | 格格
指 zhi3 | zhī, zhí only in the colloquial 指甲, 指头 | 指甲 指头
排 pai2 | pǎi only in 排子车; bài is archaic | 排子
看 kan4 | kān (guard, look after) only in these words | 看守 看门 看护 看家 看管 看押 看财奴
要 yao4 | yāo only in these words; yǎo is archaic | 要求 要挟 要约
六 liu4 | lù only in the place names 六安, 六合 | 六安 六合
大 da4 | dài only in these words; tài is archaic | 大夫 大王 大黄
阿 a1 | ē only in these words | 阿谀 阿胶 阿附 东阿
给 gei3 | jǐ (supply) only in these words | 供给 给予 补给 自给 给养 配给
正 zheng4 | zhēng only in 正月 | 正月
会 hui4 | kuài only in 会计 | 会计 财会
号 hao4 | háo (cry out) only in these words | 号叫 号哭 号啕 呼号 哀号
百 bai3 | bó only in the place name 百色; mò is archaic | 百色
乘 cheng2 | shèng only in classical words | 千乘 万乘 史乘
舍 she3 | shè (house) only in these words; shì is archaic | 宿舍 校舍 舍弟 寒舍 旅舍 客舍 农舍 房舍 三舍
没 mei2 | mò (sink) only in these words | 淹没 没收 埋没 出没 沉没 隐没 吞没 覆没 没落
圈 quan1 | juān, juàn (pen) only in these words | 猪圈 羊圈 牛圈 圈养 圈起 圈住
可 ke3 | kè only in 可汗; gē is archaic | 可汗
作 zuo4 | zuō, zuó only in 作坊, 作料 | 作坊 作料
句 ju4 | gōu only in names (高句丽, 句践); gòu, qú are archaic | 高句丽 句践
节 jie2 | jiē only in 节骨眼 | 节骨眼
落 luo4 | là, lào, luō only in these words | 落下 丢三落四 落枕 落色 落炕 大大落落
各 ge4 | gě only in the dialect 自各儿 | 自各
台 tai2 | tāi only in place names; yí, sì are archaic | 台州 天台
传 chuan2 | zhuàn (record, biography) only in these words | 传记 自传 经传 列传 外传 正传 小传 别传
猫 mao1 | máo only in the dialect 猫腰; miáo is archaic | 猫腰
同 tong2 | tòng only in 胡同 | 胡同
占 zhan4 | zhān (divine) only in these words | 占卜 占卦 占星
拉 la1 | lá, lǎ only in colloquial words | 半拉 拉口子
说 shuo1 | shuì only in 游说, 说客; yuè (= 悦) is archaic | 游说 说客
读 du2 | dòu only in 句读 | 句读
别 bie2 | biè only in 别扭 | 别扭
万 wan4 | mò only in the surname 万俟 | 万俟
查 cha2 | zhā is a surname | 山查
解 jie3 | jiè, xiè only in these words and the surname | 押解 解送 起解 解数
背 bei4 | bēi (carry on the back) only in these words | 背包 背负 背起 背着 背带 背篓
藏 cang2 | zàng only in these words | 西藏 宝藏 藏族 藏文 藏语 藏青 藏经 道藏 藏传
提 ti2 | dī only in 提防, 提溜 | 提防 提溜
红 hong2 | gōng only in 女红 | 女红
无 wu2 | mó only in 南无 | 南无
跑 pao3 | páo only in 虎跑 and 'paw the ground' | 虎跑
约 yue1 | yāo (weigh) only in colloquial 约一约 | 约约
尾 wei3 | yǐ only in the colloquial 尾巴, 马尾 | 尾巴 马尾
压 ya1 | yà only in 压根 | 压根
麻 ma2 | mā only in the dialect 麻麻黑 | 麻麻
拆 chai1 | cā only in the dialect 拆烂污 | 拆烂污
化 hua4 | huā only in 化子 (beggar); huò is archaic | 化子
扫 sao3 | sào only in 扫帚, 扫把 | 扫帚 扫把
降 jiang4 | xiáng (surrender) only in these words | 投降 降服 降伏 受降 招降 降龙
并 bing4 | bīng only in the place name 并州 | 并州
浪 lang4 | láng only in 沧浪 | 沧浪
轴 zhou2 | zhòu only in 压轴, 大轴子 | 压轴 大轴
横 heng2 | hèng (rude, unexpected) only in these words | 蛮横 横财 横祸 专横 强横
中 zhong1 | zhòng (hit) only in these words | 中奖 打中 看中 命中 击中 射中 猜中 中毒 中暑 中意 中弹 中选 考中 选中
打 da3 | dá (a dozen) only after a number | 一打 两打 半打
难 nan2 | nàn (disaster) only in these words | 灾难 难民 遇难 患难 责难 发难 苦难 避难 难友 罹难 落难
头 tou2 | the light suffix tou only in these words | 木头 石头 骨头 舌头 指头 念头 前头 后头 里头 外头 上头 下头 码头 苦头 甜头 来头 看头 盼头 想头 枕头 馒头 罐头 锄头 斧头 拳头 跟头 丫头
色 se4 | shǎi only in these colloquial words | 色子 掉色 落色 颜色儿
好 hao3 | hào (be fond of) only in these words | 爱好 好奇 好学 好客 好胜 嗜好 喜好 好战 好色 好为人师
"""
