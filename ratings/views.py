"""The ladder (``/ratings/``): players by rating, or by points earned this week or month."""

from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode

from ratings import ladder as ladders


def _page_size(value) -> int:
    try:
        size = int(value)
    except (TypeError, ValueError):
        return ladders.DEFAULT_PAGE_SIZE
    return size if size in ladders.PAGE_SIZES else ladders.DEFAULT_PAGE_SIZE


def ladder(request):
    ladder = ladders.Ladder(request.GET.get("period", ladders.ALL_TIME))
    size = _page_size(request.GET.get("size"))
    paginator = ladder.paginator(size)
    page_number = request.GET.get("page")

    query = request.GET.get("q", "").strip()[:150]
    found = suggestions = None
    not_listed = False
    if query:
        found = ladders.find_login(query)
        if found is None:
            suggestions = ladders.logins_starting(query)
        else:
            position = ladder.position_of(found.player)
            if position is None:
                not_listed = True
            else:
                page_number = position // size + 1
    page = paginator.get_page(page_number)

    highlight = {found.pk} if found is not None else set()
    if request.user.is_authenticated:
        highlight.add(request.user.pk)

    def link(**changes):
        params = {"period": ladder.period, "size": size, **changes}
        params = {k: v for k, v in params.items()
                  if v not in (None, "") and not (k == "period" and v == ladders.ALL_TIME)
                  and not (k == "size" and v == ladders.DEFAULT_PAGE_SIZE)}
        return reverse("ratings:ladder") + ("?" + urlencode(params) if params else "")

    pages = [(number, None if number == page.paginator.ELLIPSIS else link(page=number))
             for number in page.paginator.get_elided_page_range(page.number, on_each_side=2,
                                                                 on_ends=1)]
    return render(request, "ratings/ladder.html", {
        "ladder": ladder, "page": page, "rows": page.object_list, "pages": pages,
        "query": query, "found": found, "not_listed": not_listed, "suggestions": suggestions,
        "highlight": highlight, "size": size, "sizes": ladders.PAGE_SIZES,
        "periods": [(p, link(period=p)) for p in ladders.PERIODS],
        "previous_url": link(page=page.previous_page_number()) if page.has_previous() else None,
        "next_url": link(page=page.next_page_number()) if page.has_next() else None,
        "size_links": [(s, link(size=s, period=ladder.period)) for s in ladders.PAGE_SIZES],
    })
