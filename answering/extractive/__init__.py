"""The embedded answerer: the deterministic path from passages to a cited, gated draft.

The steps, in order (each a module of this package):
1. ``question``: the question read once into a frozen value (what it asks for: ``focus``, a definition's
   term: ``terms``; its language, the instruments, article, years and places it names).
2. ``candidates``: the units of the top passages (sentences, ayat, table rows, lead-ins with their
   lists: ``units``, after what a text layer left is taken out: ``textlayer``) scored by words, focus and meaning
   (multilingual-e5, ``semantic``).
3. selection (``synthesis``, which runs the steps): the best units, from one document when the question is focused.
4. ``answerability`` checks the constraints (years, places: ``places``, names: ``names``, numbers,
   articles, instruments, offices, term coverage); ``signals`` turns them and the scores into the decision's features;
   ``decision`` weighs them with frozen fitted parameters: publish or decline.
5. ``opener`` states the answer in one plain sentence (``yesno`` its polarity, from a rule about the case
   asked and not its complement or a narrower one: ``cases``; ``status`` whether a named
   instrument still holds, from the clause that revokes or amends it, ``phrasing`` its wording);
   ``layout`` quotes the supporting text under its article heading, ayat and huruf as list items.
A declined draft is the fixed no-answer text, with a pointer to the nearest evidence where the topic
is covered but a year or a place is not. The model-backed synthesiser produces the same
``AnswerDraft``, so the gate, guard, persistence and SSE never branch.
"""
