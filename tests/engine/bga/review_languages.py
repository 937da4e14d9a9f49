"""Game review texts of Puerto Rico in other languages than English, written by hand for the tests in the style of BGA's
review page (a header per move with its time, then the lines a person saw): a German and a Hungarian reader's copy of
the same opening, and an English text that is no log either (the lines without the review page's headers)."""

GERMAN_REVIEW = """Puerto Rico - Spielbericht
Zug 1 : 14.03.2026, 20:15:07
Die Farben von Anna, Ben und Cleo wurden nach ihren Vorlieben gewählt.
Anna ist der Gouverneur.
Zug 2 : 20:15:31
Anna wählt den Siedler
Anna nimmt eine Maisplantage
Anna nimmt als Privileg einen Steinbruch
Zug 3 : 20:15:52
Ben nimmt eine Indigoplantage
Zug 4 : 20:16:03
Cleo nimmt eine Zuckerplantage
Neue Plantagen werden aufgedeckt
Zug 5 : 20:16:20
Ben wählt den Bürgermeister
Ben erhält einen Kolonisten aus dem Vorrat als Privileg
Das Kolonistenschiff bringt 3 Kolonisten
"""

HUNGARIAN_REVIEW = """Puerto Rico - játék visszajátszása
1. lépés : 2026. 03. 14. 20:15:07
Anna, Ben és Cleo színei a preferenciáik szerint lettek kiválasztva.
Anna a kormányzó.
2. lépés : 20:15:31
Anna az ültetvényest választotta
Anna kapott egy kukoricaültetvényt
Anna privilégiumként egy kőbányát vett el
3. lépés : 20:15:52
Ben kapott egy indigóültetvényt
4. lépés : 20:16:03
Cleo kapott egy cukornád-ültetvényt
Új ültetvények kerültek felfordításra
5. lépés : 20:16:20
Ben a polgármestert választotta
Ben privilégiumként kapott egy telepest a készletből
A telepeshajó 3 telepest hoz
"""

ENGLISH_UNREADABLE = """Anna selected the settler
Anna got a new plantation: corn
Anna got a new quarry as her privilege
Ben got a new plantation: indigo
Ben selected the mayor
Ben gets 1 colonist from the supply as his privilege
"""
