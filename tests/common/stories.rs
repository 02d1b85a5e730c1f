//! Two short stories of twelve sentences each with nothing in common (a town's flood and an
//! orchestra's season), for collection tests that need texts judged against chance.

pub const FLOOD: [&str; 12] = [
    "The river flooded the lower town in April.",
    "Farmers lost most of their spring wheat.",
    "The council opened the school as a shelter.",
    "Volunteers brought blankets and food from the next valley.",
    "Nobody was hurt, but the bridge was closed for a month.",
    "Engineers inspected the old levee after the water went down.",
    "The mayor asked the region for money to rebuild it.",
    "Shops on the main street reopened within two weeks.",
    "The school returned to lessons after the holidays.",
    "A memorial stone now marks the height the water reached.",
    "Insurance claims took most of the summer to settle.",
    "The town holds a fair every April to remember the flood.",
];

pub const CONCERT: [&str; 12] = [
    "The orchestra opened its season with a new symphony by a local composer.",
    "Critics praised the young conductor for her clear and lively tempo.",
    "The hall was full for both evenings of the first weekend.",
    "Tickets for the spring concerts sold out within a single day.",
    "The composer thanked the players from the stage after the final chord.",
    "A recording of the premiere will be released in the autumn.",
    "The city council promised to repair the old organ next year.",
    "Students from the music school were given free seats on Sundays.",
    "The season ends in June with a festival of chamber music.",
    "Several soloists from abroad will join the orchestra in May.",
    "The program notes were written by the composer himself.",
    "Local radio broadcast the second evening live across the region.",
];
