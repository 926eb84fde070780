/**
 * Common first names, for finding an action item's owner in a transcript the decoder wrote in
 * lower case ("sara will send the notes"). Speaker names and memory notes are checked first;
 * this list only catches people who were mentioned but never named as a speaker.
 */
export const FIRST_NAMES: ReadonlySet<string> = new Set(
  (
    'aaron adam adrian alan albert alex alexander alice amanda amy andrea andrew angela anna anne anthony ashley barbara ben benjamin ' +
    'beth betty bill bob brandon brenda brian bruce carl carlos carol caroline catherine charles charlie chris christina christine ' +
    'christopher claire daniel david deborah dennis diana donald donna dorothy douglas dylan edward elizabeth ella emily emma eric ' +
    'ethan eva frank gary george grace gregory hannah harry heather helen henry isaac jack jacob james jane janet jason jeff jennifer ' +
    'jeremy jessica jim joan joe john jonathan jose joseph joshua julia julie justin karen kate katherine kathy keith kelly kevin kim ' +
    'kyle larry laura lauren linda lisa lucas lucy luke maria mark martha martin mary matt matthew megan melissa michael michelle mike ' +
    'nancy natalie nathan nicholas nick nicole noah olivia oliver pamela patricia patrick paul peter rachel ralph raymond rebecca richard ' +
    'rick robert roger ronald rose ruth ryan sam samuel sandra sara sarah scott sean sharon sophia sophie stephanie stephen steve steven ' +
    'susan tom thomas tim timothy tony victoria walter william zoe ali reza sina mina maryam leila nima amir hassan hossein mohammad ' +
    'mehdi neda parisa fatemeh zahra arash babak omid shirin ' +
    'سارا علی رضا محمد حسین حسن مهدی امیر نیما سینا مینا مریم لیلا ندا پریسا فاطمه زهرا آرش بابک امید شیرین'
  ).split(' '),
);
